import { describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ChatIntegrations.stories';
import { integrationsApi } from './ChatIntegrations.stories';

const { Default, ErpFailed, NoIntegrations, CallFailed, ManyItems, DeleteRefused } = composeStories(stories);

describe('ChatIntegrations (contact drawer "Integrações", findByChatId)', () => {
  it('shows each findByChatId integration with its items, or its noItems text', async () => {
    render(<Default />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    // Fields by their schema titles; the field linking the item to this chat is left out.
    expect(within(pedidos).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'P-2Valor (R$): 100',
      'P-1Valor (R$): 300',
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

describe('ChatIntegrations: add, see-more, edit, delete', () => {
  const withNavigate = (story: typeof stories.Default, parameters: Record<string, unknown>) =>
    composeStory(story, { ...stories.default, parameters } as Parameters<typeof composeStory>[1]);

  it("opens the record form with the chat in the link field, and a record's edit page", async () => {
    const navigate = vi.fn();
    const Story = withNavigate(stories.Default, { api: integrationsApi(), navigate });
    render(<Story />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    const user = userEvent.setup();
    await user.click(within(pedidos).getByRole('button', { name: 'Adicionar' }));
    expect(navigate).toHaveBeenLastCalledWith('/integration/pedidos/create', { record: { telefone: '5511987654321' } });
    await user.click(within(pedidos).getByRole('button', { name: 'Editar P-1' }));
    expect(navigate).toHaveBeenLastCalledWith('/integration/pedidos/P-1');
    // The ERP section's rows are not local records: no edit or delete.
    expect(within(screen.getByRole('region', { name: 'Clientes' })).queryByRole('button', { name: /^Editar/ })).toBeNull();
  });

  it("shows three items, then all after 'Ver mais'", async () => {
    render(<ManyItems />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    expect(within(pedidos).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.setup().click(within(pedidos).getByRole('button', { name: 'Ver mais' }));
    expect(within(pedidos).getAllByRole('listitem')).toHaveLength(5);
    expect(within(pedidos).queryByRole('button', { name: 'Ver mais' })).toBeNull();
  });

  it('asks "Tem certeza que quer deletar o item?", DELETEs on DELETAR and refreshes; Cancelar does nothing', async () => {
    const api = integrationsApi();
    const Story = withNavigate(stories.Default, { api });
    render(<Story />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    const user = userEvent.setup();
    await user.click(within(pedidos).getByRole('button', { name: 'Excluir P-2' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Tem certeza que quer deletar o item?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(screen.getByRole('region', { name: 'Pedidos' })).getByRole('button', { name: 'Excluir P-2' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'DELETAR' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/integration/pedidos/P-2']));
    await waitFor(() => expect(api.calls.filter((c) => c.path.startsWith('/api/integration-chat/'))).toHaveLength(2));
    expect(await screen.findByText('Registro Deletado!')).toBeTruthy();
  });

  it("shows the server's refusal of a delete", async () => {
    render(<DeleteRefused />);
    const pedidos = await screen.findByRole('region', { name: 'Pedidos' });
    const user = userEvent.setup();
    await user.click(within(pedidos).getByRole('button', { name: 'Excluir P-1' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'DELETAR' }));
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeTruthy();
  });
});
