import { describe, expect, it } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ChatIntegrations.stories';
import { integrationsApi } from './ChatIntegrations.stories';

const { Default, ErpFailed, NoIntegrations, CallFailed } = composeStories(stories);

describe('ChatIntegrations (contact drawer "Integrações", findByChatId)', () => {
  it('shows each findByChatId integration with its items, or its noItems text', async () => {
    render(<Default />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    expect(within(pedidos).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'P-2valor: 100 · telefone: 5511987654321',
      'P-1valor: 300 · telefone: 5511987654321',
    ]);
    const clientes = screen.getByRole('region', { name: 'Clientes' });
    expect(within(clientes).getByText('Nenhum cliente com este telefone')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Integrações' })).toBeTruthy();
  });

  it('asks GET /api/integration-chat/{chatId} once, and again on refresh', async () => {
    const api = integrationsApi();
    const Story = composeStory(stories.Default, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    await screen.findByRole('region', { name: 'Pedidos' });
    const calls = () => api.calls.filter((c) => c.method === 'GET' && c.path === '/api/integration-chat/5511987654321');
    expect(calls()).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Atualizar' }));
    await screen.findByRole('region', { name: 'Pedidos' });
    await waitFor(() => expect(calls()).toHaveLength(2));
  });

  it("says 'Erro na Busca!' in the section whose ERP failed, and 'Sem registros' with no integration", async () => {
    const first = render(<ErpFailed />);
    const clientes = await screen.findByRole('region', { name: 'Clientes' });
    expect(within(clientes).getByText('Erro na Busca!')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Pedidos' })).toBeTruthy();
    first.unmount();
    const second = render(<NoIntegrations />);
    expect(await screen.findByText('Sem registros')).toBeTruthy();
    second.unmount();
    render(<CallFailed />);
    expect(await screen.findByText('Erro na Busca!')).toBeTruthy();
  });
});
