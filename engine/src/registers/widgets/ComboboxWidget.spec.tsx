import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './ComboboxWidget.stories';

const { FreeEntries, Suggested, ItemRule } = composeStories(stories);
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

  it("refuses an entry that breaks the item's rule with the item's message, keeping the text to correct", async () => {
    const user = userEvent.setup();
    render(<ItemRule />);
    const box = screen.getByRole('combobox', { name: /CPF\/CNPJ/ });
    await user.type(box, '12a.345{Enter}');
    expect(screen.getByText('CGC inválido')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '12a.345' })).toBeNull();
    expect((box as HTMLInputElement).value).toBe('12a.345');
    await user.clear(box);
    expect(screen.queryByText('CGC inválido')).toBeNull();
    await user.type(box, '123.456.789-00{Enter}');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ CGC: ['123.456.789-00'] });
  });
});

