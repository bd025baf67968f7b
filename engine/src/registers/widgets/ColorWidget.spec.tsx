import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './ColorWidget.stories';

const { TagColor, ReadOnly } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);

describe('ColorWidget', () => {
  it('starts from the default; the picker sets the RGB part and keeps the alpha', async () => {
    const user = userEvent.setup();
    render(<TagColor />);
    expect((screen.getByRole('textbox', { name: 'Cor' }) as HTMLInputElement).value).toBe('#1976D2FF');
    const picker = screen.getByLabelText('Cor (seletor)') as HTMLInputElement;
    expect(picker.value).toBe('#1976d2');
    fireEvent.change(picker, { target: { value: '#00ff00' } });
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ color: '#00FF00FF' });
  });

  it('takes a typed value and drops the field when emptied', async () => {
    const user = userEvent.setup();
    render(<TagColor />);
    const box = screen.getByRole('textbox', { name: 'Cor' });
    await user.clear(box);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({});
    await user.type(box, '#123456AA');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ color: '#123456AA' });
  });

  it('is locked when read-only', () => {
    render(<ReadOnly />);
    expect((screen.getByRole('textbox', { name: 'Cor' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Cor (seletor)') as HTMLInputElement).disabled).toBe(true);
  });
});
