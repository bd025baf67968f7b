import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './NewFolder.stories';

const { Vehicles } = composeStories(stories);

describe('a register that is only a folder (vehicles)', () => {
  it('lists with the columns, sort and page size of its list.json', async () => {
    render(<Vehicles />);
    await screen.findByText('Fusca', {}, { timeout: 5000 });
    for (const header of ['Modelo', 'Placa', 'Ano', 'Ativo']) expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('Fusca'), expect.stringContaining('Kombi')]);
    const call = recordedCalls().find((c) => c.method === 'GET' && c.path.startsWith('/api/vehicles?'))!;
    const params = new URLSearchParams(call.path.split('?')[1]);
    expect(JSON.parse(params.get('range')!)).toEqual([0, 4]);
    expect(JSON.parse(params.get('sort')!)).toEqual(['model', 'ASC']);
  });

  it('creates through its schema: defaults, its own pt-BR messages, then the POST', async () => {
    const user = userEvent.setup();
    render(<Vehicles />);
    await screen.findByText('Fusca', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: messages.registers.create }));
    await screen.findByRole('heading', { name: 'Novo Veículo' });
    expect((screen.getByRole('switch', { name: 'Ativo' }) as HTMLInputElement).checked).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /^Placa/ }), 'abc');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText('Informe o modelo')).toBeTruthy();
    expect(screen.getByText('Placa inválida (ex.: ABC1D23)')).toBeTruthy();
    expect(recordedCalls().some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByRole('textbox', { name: /^Modelo/ }), 'Brasília');
    await user.clear(screen.getByRole('textbox', { name: /^Placa/ }));
    await user.type(screen.getByRole('textbox', { name: /^Placa/ }), 'BRA2E19');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText(messages.table.saved)).toBeTruthy();
    const post = recordedCalls().find((c) => c.method === 'POST' && c.path === '/api/vehicles')!;
    expect(post.body).toMatchObject({ model: 'Brasília', plate: 'BRA2E19', active: true, color: '#1976D2FF', year: null });
  });
});
