import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './SwitchWidget.stories';

const { On, Locked } = composeStories(stories);

describe('SwitchWidget', () => {
  it('starts from the schema default and submits the toggled value', async () => {
    const user = userEvent.setup();
    render(<On />);
    const toggle = screen.getByRole('switch', { name: 'Ativo' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(JSON.parse(screen.getByTestId('submitted').textContent!)).toEqual({ active: false });
  });

  it('is disabled with the reason when the user may not change it', () => {
    render(<Locked />);
    expect((screen.getByRole('switch', { name: 'Envio de mensagens' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getAllByText(messages.registers.adminOnlyHint).length).toBeGreaterThan(0);
  });
});
