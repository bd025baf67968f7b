import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './ServiceView.stories';
import { createConsoleStores } from './store/consoleStores';

const s = composeStories(stories);
// These render the whole open chat; on a busy 2-core machine a render can exceed the default 1 s.
configure({ asyncUtilTimeout: 4000 });
const region = (c: HTMLElement, name: string) => c.querySelector(`[data-region="${name}"]`) as HTMLElement | null;

describe('ServiceView (seed 001 §2 "Layout")', () => {
  it('puts the chat list on the left at 4/12 and the panes on the right; a card opens its chat there', async () => {
    const { container } = render(<s.NoChatOpen />);
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('wide');
    expect(getComputedStyle(region(container, 'chat-list')!).width).toBe(`${(4 / 12) * 100}%`);
    expect(within(region(container, 'panes')!).getByText('Selecione um chat para começar o atendimento')).toBeTruthy();
    fireEvent.click(await screen.findByText('Maria Souza'));
    const pane = await waitFor(() => {
      const el = container.querySelector('[data-chat-pane="room-1"]') as HTMLElement | null;
      expect(el).toBeTruthy();
      return el!;
    });
    expect(within(pane).getByRole('heading', { name: 'Maria Souza' })).toBeTruthy();
    expect(await within(pane).findByText('Vocês entregam no sábado?')).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Contato' })).toBeTruthy();
  });

  it('two open chats sit side by side at half the width each; closing one gives the other the full width', async () => {
    const { container } = render(<s.TwoChats />);
    const panes = container.querySelectorAll('[data-pane]');
    expect([...panes].map((p) => p.getAttribute('data-pane'))).toEqual(['room-1', 'room-2']);
    for (const p of panes) expect([getComputedStyle(p).flexGrow, getComputedStyle(p).flexShrink, getComputedStyle(p).flexBasis]).toEqual(['1', '1', '0px']);
    expect(within(panes[1] as HTMLElement).getByRole('heading', { name: 'Carlos Lima' })).toBeTruthy();
    fireEvent.click(within(panes[1] as HTMLElement).getByRole('button', { name: 'Ocultar chat' }));
    await waitFor(() => expect(container.querySelectorAll('[data-pane]')).toHaveLength(1));
  });

  it('Ctrl+click on a second card opens it beside the first; a plain click replaces the open chat', async () => {
    const { container } = render(<s.NoChatOpen />);
    fireEvent.click(await screen.findByText('Maria Souza'));
    await waitFor(() => expect(container.querySelector('[data-pane="room-1"]')).toBeTruthy());
    fireEvent.click(screen.getByText('Carlos Lima'), { ctrlKey: true });
    await waitFor(() => expect([...container.querySelectorAll('[data-pane]')].map((p) => p.getAttribute('data-pane'))).toEqual(['room-1', 'room-2']));
    fireEvent.click(screen.getByRole('tab', { name: 'Fila' }));
    fireEvent.click(await screen.findByText('Cliente 3'));
    await waitFor(() => expect([...container.querySelectorAll('[data-pane]')].map((p) => p.getAttribute('data-pane'))).toEqual(['room-3']));
  });

  it('back from another screen, the agent finds the tab and the chats they left; another user starts from the defaults', async () => {
    const first = render(<s.AsMounted />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Fila' }));
    fireEvent.click(await screen.findByText('Cliente 3'));
    await waitFor(() => expect(first.container.querySelector('[data-pane="room-3"]')).toBeTruthy());
    first.unmount();

    const back = render(<s.AsMounted />);
    expect(screen.getByRole('tab', { name: 'Fila' }).getAttribute('aria-selected')).toBe('true');
    expect(back.container.querySelector('[data-pane="room-3"]')).toBeTruthy();
    expect(await within(back.container.querySelector('[data-pane="room-3"]') as HTMLElement).findByRole('heading', { name: 'Cliente 3' })).toBeTruthy();
    back.unmount();

    render(<s.AsMounted user={{ ...s.AsMounted.args!.user!, id: 'outro-agente' }} />);
    expect(screen.getByRole('tab', { name: 'Meus' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens the chat the address names, and reports the chat in front as the agent opens and closes chats', async () => {
    const fronts: (string | null)[] = [];
    // One set of stores across the re-renders below, as the app keeps its own.
    const stores = createConsoleStores();
    const { container, rerender } = render(<s.ChatInAddress stores={stores} onChatInFront={(id) => fronts.push(id)} />);
    // The room is not in the list's store yet: the pane's own live query loads it.
    await waitFor(() => expect(within(container.querySelector('[data-pane="room-2"]') as HTMLElement).getByRole('heading', { name: 'Carlos Lima' })).toBeTruthy());
    // Arriving on the address's chat reports nothing: the address already says it.
    expect(fronts).toEqual([]);
    fireEvent.click(await screen.findByText('Maria Souza'));
    await waitFor(() => expect(fronts).toEqual(['room-1']));
    // The address follows (the engine replaces it); then it names another chat, as a pasted link would.
    rerender(<s.ChatInAddress stores={stores} chatInAddress="room-1" onChatInFront={(id) => fronts.push(id)} />);
    rerender(<s.ChatInAddress stores={stores} chatInAddress="room-2" onChatInFront={(id) => fronts.push(id)} />);
    await waitFor(() => expect(container.querySelector('[data-chat-pane="room-2"]')).toBeTruthy());
    expect(fronts).toEqual(['room-1']);
    fireEvent.click(within(container.querySelector('[data-pane="room-2"]') as HTMLElement).getByRole('button', { name: 'Ocultar chat' }));
    await waitFor(() => expect(fronts).toEqual(['room-1', null]));
  });

  it('narrow (≤ 1065 px): the list alone, then the chat alone with a way back', async () => {
    const { container } = render(<s.Narrow />);
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('narrow');
    expect(region(container, 'panes')).toBeNull();
    fireEvent.click(await screen.findByText('Maria Souza'));
    await waitFor(() => expect(region(container, 'chat-list')).toBeNull());
    expect(container.querySelector('[data-chat-pane="room-1"]')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Voltar para a lista' }));
    await waitFor(() => expect(region(container, 'chat-list')).toBeTruthy());
  });

  it("the 'Contatos' tab lists the live collection's contacts by name, without group chats, and never asks the register (403 for an agent)", async () => {
    const { api, live } = s.ContactsTab.parameters as { api: ReturnType<typeof stories.serviceApi>; live: ReturnType<typeof stories.serviceLive> };
    render(<s.ContactsTab />);
    const list = await screen.findByText('Maria Souza');
    expect(list).toBeTruthy();
    expect(screen.getByText('Contato Bloqueado Teste')).toBeTruthy();
    expect(screen.queryByText('Grupo Compras')).toBeNull();
    expect(live.queries.filter((q) => q.collection === 'contacts')).toEqual([{ collection: 'contacts', query: { orderBy: [{ field: 'displayName', direction: 'asc' }], limit: 20 } }]);
    expect(api.calls.filter((c) => c.path.startsWith('/api/contacts'))).toEqual([]);
  });

  it("sets the browser title 'ChatBot UF (n)' from the agent's unread chats", async () => {
    render(<s.NoChatOpen />);
    await waitFor(() => expect(document.title).toBe('ChatBot UF (1)'));
  });
});
