import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordedCalls } from '../stories/fakeApi';
import * as stories from './ChatIntegrations.stories';

const { Default, ErpFailed, NoIntegrations } = composeStories(stories);

const calls = () => recordedCalls().filter((call) => call.path === '/api/integration-chat/5511999990001');

describe('ChatIntegrations', () => {
  it('shows each findByChatId integration with its items, or its noItems text', async () => {
    render(<Default />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    expect(within(pedidos).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'P-2valor: 100 · telefone: 5511999990001',
      'P-1valor: 300 · telefone: 5511999990001',
    ]);
    const clientes = screen.getByRole('region', { name: 'Clientes' });
    expect(within(clientes).getByText('Nenhum cliente com este telefone')).toBeTruthy();
    expect(calls()).toHaveLength(1);
  });

  it('refreshes on request', async () => {
    render(<Default />);
    await screen.findByRole('region', { name: 'Pedidos' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Atualizar' }));
    await screen.findByRole('region', { name: 'Pedidos' });
    expect(calls()).toHaveLength(2);
  });

  it("says 'Erro na Busca!' in the section whose ERP failed, and 'Sem registros' with no integration", async () => {
    const first = render(<ErpFailed />);
    expect(await screen.findByText('Erro na Busca!')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Pedidos' })).toBeTruthy();
    first.unmount();
    render(<NoIntegrations />);
    expect(await screen.findByText('Sem registros')).toBeTruthy();
  });
});
