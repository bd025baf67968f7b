import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './DataTableField.stories';

const { Rows, SubForm } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);

describe('DataTableField', () => {
  it('lists the rows without reorder buttons, adds and removes rows', async () => {
    const user = userEvent.setup();
    render(<Rows />);
    expect((screen.getByRole('textbox', { name: 'Chassi' }) as HTMLInputElement).value).toBe('9BWZZZ377VT004251');
    expect(screen.queryByRole('button', { name: /move up|mover para cima/i })).toBeNull();
    await user.click(screen.getByRole('button', { name: /adicionar|add/i }));
    const chassis = screen.getAllByRole('textbox', { name: 'Chassi' });
    expect(chassis).toHaveLength(2);
    await user.type(chassis[1]!, 'XYZ');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ vehicles: [{ chassis: '9BWZZZ377VT004251', year: 2020 }, { chassis: 'XYZ' }] });
    await user.click(screen.getAllByRole('button', { name: /remover|remove/i })[0]!);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ vehicles: [{ chassis: 'XYZ' }] });
  });

  it('draws a nested object as a sub-form', async () => {
    const user = userEvent.setup();
    render(<SubForm />);
    expect(screen.getByText('Endereço')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'UF' }), 'PR');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ address: { city: 'Curitiba', state: 'PR' } });
  });
});
