import { describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './ContactDrawer.stories';
import { drawerApi } from './ContactDrawer.stories';
import { createConsoleStores, roomActions } from '../../store/consoleStores';
import { rooms } from '../../fixtures/chatFixtures';

const s = composeStories(stories);

describe('ContactDrawer (seed 001 §2 "Right contact drawer")', () => {
  it('shows avatar, name, id, masked phone and e-mail of the loaded contact', async () => {
    const { container } = render(<s.AsAdmin />);
    const drawer = screen.getByRole('complementary', { name: 'Contato' });
    expect(within(drawer).getByText('Maria Souza')).toBeTruthy();
    expect(container.querySelector('[data-contact-id]')!.textContent).toBe('contact-1');
    expect(container.querySelector('[data-contact-phone]')!.textContent).toBe('+55 (11) 98765.4321');
    expect(await within(drawer).findByText('maria@exemplo.com.br')).toBeTruthy();
    expect(within(drawer).queryByText('Contato Bloqueado')).toBeNull();
    expect(drawer.style.width || getComputedStyle(drawer).width).toBe('226px');
  });

  it("an agent without the contacts permission never asks GET /api/contacts/{id} (it would answer 403): the room's author fields are shown", async () => {
    const api = drawerApi();
    const Story = composeStory(stories.Contact, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    const { container } = render(<Story />);
    // The drawer's other requests (history, integrations) prove it has loaded.
    await waitFor(() => expect(api.calls.some((c) => c.path.startsWith('/api/rooms'))).toBe(true));
    await waitFor(() => expect(api.calls.some((c) => c.path.startsWith('/api/integration-chat'))).toBe(true));
    expect(api.calls.filter((c) => c.path.startsWith('/api/contacts'))).toEqual([]);
    expect(container.querySelector('[data-contact-phone]')!.textContent).toBe('+55 (11) 98765.4321');
  });

  it('an admin reads the contact record once', async () => {
    const api = drawerApi();
    const Story = composeStory(stories.AsAdmin, { ...stories.default, parameters: { ...stories.AsAdmin.parameters, api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/contacts/contact-1')).toHaveLength(1));
  });

  it("marks a blocked contact 'Contato Bloqueado'", async () => {
    render(<s.BlockedContact />);
    expect(await screen.findByText('Contato Bloqueado')).toBeTruthy();
  });

  it("lists the contact's chat history 5 at a time; 'Ver mais' loads the rest and a click opens the chat", async () => {
    const api = drawerApi();
    const onOpenRoom = vi.fn();
    const Story = composeStory(stories.Contact, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    render(<Story onOpenRoom={onOpenRoom} />);
    const list = screen.getByRole('list', { name: 'Histórico de chats' });
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(5));
    const first = api.calls.find((c) => c.path.startsWith('/api/rooms?'))!;
    const params = new URLSearchParams(first.path.split('?')[1]);
    expect(params.get('tab')).toBe('chatsHistories');
    expect(params.get('limit')).toBe('5');
    expect(JSON.parse(params.get('filter')!)).toEqual({ field: 'author.id', op: '==', value: 'contact-1' });
    fireEvent.click(screen.getByRole('button', { name: 'Ver mais' }));
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(7));
    expect(screen.queryByRole('button', { name: 'Ver mais' })).toBeNull();
    fireEvent.click(within(list).getAllByRole('button')[0]!);
    expect(onOpenRoom).toHaveBeenCalledWith(expect.objectContaining({ id: 'room-200' }));
  });

  it('asks the history again when the open chat closes (it joins the history)', async () => {
    const api = drawerApi();
    const stores = createConsoleStores({ rooms });
    const Story = composeStory(stories.Contact, { ...stories.default, parameters: { api, stores } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    const historyCalls = () => api.calls.filter((c) => c.path.startsWith('/api/rooms?')).length;
    await waitFor(() => expect(historyCalls()).toBe(1));
    act(() => roomActions.upsert(stores.rooms, [{ ...rooms[0]!, active: false }]));
    await waitFor(() => expect(historyCalls()).toBe(2));
    const list = screen.getByRole('list', { name: 'Histórico de chats' });
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(5));
  });

  it("shows the open chat's 'Integrações' (GET /api/integration-chat/{chatId}) below the history", async () => {
    const api = drawerApi();
    const Story = composeStory(stories.Contact, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    const drawer = screen.getByRole('complementary', { name: 'Contato' });
    const block = within(drawer).getByRole('region', { name: 'Integrações' });
    const pedidos = await within(block).findByRole('region', { name: 'Pedidos' });
    expect(within(pedidos).getAllByRole('listitem')).toHaveLength(2);
    expect(within(block).getByText('Nenhum cliente com este telefone')).toBeTruthy();
    expect(api.calls.filter((c) => c.path.startsWith('/api/integration-chat/')).map((c) => c.path)).toEqual(['/api/integration-chat/5511987654321']);
  });
});
