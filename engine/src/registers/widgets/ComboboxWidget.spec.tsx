import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './ComboboxWidget.stories';

const { FreeEntries, Suggested } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);

describe('ComboboxWidget', () => {
  it('shows the saved entries as chips, inserts on Enter without duplicates and trims', async () => {
    const user = userEvent.setup();
    render(<FreeEntries />);
    expect(screen.getByText(messages.validation.comboboxHint)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'orcamento' })).toBeTruthy();
    const box = screen.getByRole('combobox', { name: 'Contextos' });
    await user.type(box, '  entrega {Enter}');
    await user.type(box, 'orcamento{Enter}');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ contexts: ['orcamento', 'entrega'] });
  });

  it("offers the schema's enum as suggestions", async () => {
    const user = userEvent.setup();
    render(<Suggested />);
    await user.click(screen.getByRole('combobox', { name: 'Códigos' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['V01', 'V02', 'V03']);
    await user.click(screen.getByRole('option', { name: 'V02' }));
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ codes: ['V02'] });
  });
});
