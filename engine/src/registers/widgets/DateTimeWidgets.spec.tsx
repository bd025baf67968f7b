import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './DateTimeWidgets.stories';

const { DateAndTime, Filled } = composeStories(stories);

describe('DateWidget and TimeWidget', () => {
  it('take DD/MM/AAAA and HH:MM as typed digits and submit YYYY-MM-DD and HH:MM', async () => {
    const user = userEvent.setup();
    render(<DateAndTime />);
    await user.type(screen.getByRole('textbox', { name: /Data inicial/ }), '24122026');
    await user.type(screen.getByRole('textbox', { name: /Hora inicial/ }), '0930');
    expect((screen.getByRole('textbox', { name: /Data inicial/ }) as HTMLInputElement).value).toBe('24/12/2026');
    expect((screen.getByRole('textbox', { name: /Hora inicial/ }) as HTMLInputElement).value).toBe('09:30');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(JSON.parse(screen.getByTestId('submitted').textContent!)).toEqual({ startDate: '2026-12-24', startHour: '09:30' });
  });

  it("answers the seed's messages for an impossible hour and a half-typed date", async () => {
    const user = userEvent.setup();
    render(<DateAndTime />);
    await user.type(screen.getByRole('textbox', { name: /Data inicial/ }), '2412');
    await user.type(screen.getByRole('textbox', { name: /Hora inicial/ }), '2500');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText('Formato Invalido (23:59)')).toBeTruthy();
    expect(screen.getByText('valor inválido')).toBeTruthy();
    expect(screen.getByTestId('submitted').textContent).toBe('');
  });

  it('shows a stored date as DD/MM/AAAA', () => {
    render(<Filled />);
    expect((screen.getByRole('textbox', { name: /Data inicial/ }) as HTMLInputElement).value).toBe('24/12/2026');
    expect((screen.getByRole('textbox', { name: /Hora inicial/ }) as HTMLInputElement).value).toBe('18:30');
  });
});
