import { describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { configure, act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ChatPane.stories';
import { chatLive } from './ChatPane.stories';
import { recordingApi } from '../../fixtures/StoryConsole';
import { agentUser, appConfig, supervisorUser } from '../../fixtures/chatFixtures';
import { hidesLoadedChat } from '@atendimento/schemas';
import type { createConsoleStores } from '../../store/consoleStores';
import type { Room } from '../../model/chat';
import { conversationMessage, messagesPage, openRoom } from '../../fixtures/conversation';
import { buildMessage } from '../../fixtures/builders';
import type { LiveRecord } from '../../realtime/liveSource';

const s = composeStories(stories);
// These render the whole open chat; on a busy 2-core machine a render can exceed the default 1 s.
configure({ asyncUtilTimeout: 4000 });
const openWith = (parameters: Record<string, unknown>) => composeStory(stories.Open, { ...stories.default, parameters } as Parameters<typeof composeStory>[1]);
const log = () => screen.getByRole('log', { name: 'Mensagens' });

/** jsdom has no layout: give the message list a height and put it at `top`. */
function scrollLog(top: number, height = 3000, client = 500) {
  const el = log();
  Object.defineProperty(el, 'scrollHeight', { value: height, configurable: true });
  Object.defineProperty(el, 'clientHeight', { value: client, configurable: true });
  el.scrollTop = top;
  fireEvent.scroll(el);
}

const roomCalls = (api: ReturnType<typeof recordingApi>) => api.calls.filter((c) => c.method !== 'GET');
const pageApi = (extra: Record<string, unknown> = {}) =>
  recordingApi({ 'GET /api/rooms/*': messagesPage(), 'PATCH /api/rooms/*': { meta: { ok: true }, data: openRoom }, 'GET /api/fixedMessages': [], ...extra });

describe('ChatPane (seed 001 §2 "Open chat", §4 "Chat menu by state")', () => {
  it('shows the header (contact, room number, channel, queues, agents, tags) and the newest 20 messages', async () => {
    const { container } = render(<s.Open />);
    const header = container.querySelector('[data-chat-header]') as HTMLElement;
    expect(within(header).getByRole('heading', { name: 'Maria Souza' })).toBeTruthy();
    expect(within(header).getByText('#1001')).toBeTruthy();
    expect(within(header).getByText(/Web chat · \+55 \(11\) 98765\.4321/)).toBeTruthy();
    for (const chip of ['Vendas', 'Ana Agente', 'VIP', 'Padaria Central']) expect(within(header).getByText(chip)).toBeTruthy();
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    expect(container.querySelectorAll('[data-message-id]')).toHaveLength(20);
  });

  it("puts 'N MENSAGENS NÃO LIDAS' before the unread contact messages ('1 MENSAGEM NÃO LIDA' for one)", async () => {
    const { container, unmount } = render(<s.Open />);
    const divider = await waitFor(() => {
      const el = container.querySelector('[data-unread-divider]') as HTMLElement | null;
      expect(el).toBeTruthy();
      return el!;
    });
    expect(divider.textContent).toBe('2 MENSAGENS NÃO LIDAS');
    expect((divider.parentElement!.querySelector('[data-message-id]') as HTMLElement).dataset.messageId).toBe('room-1-m28');
    unmount();
    const one = render(<s.OneUnread />);
    await waitFor(() => expect(one.container.querySelector('[data-unread-divider]')!.textContent).toBe('1 MENSAGEM NÃO LIDA'));
  });

  it('scrolling to the top loads the older page (20 per page) and stops when there is no more', async () => {
    const api = pageApi();
    const Story = openWith({ api });
    const { container } = render(<Story />);
    await screen.findByText('Vocês entregam no sábado?');
    scrollLog(0);
    expect(await screen.findByText('Oi, tudo bem? Quero fazer um pedido.')).toBeTruthy();
    expect(container.querySelectorAll('[data-message-id]')).toHaveLength(30);
    expect(api.calls.filter((c) => c.path.startsWith('/api/rooms/room-1/messages')).map((c) => c.path)).toEqual(['/api/rooms/room-1/messages?limit=40']);
    scrollLog(0);
    // The scroll handler asks for an older page at once: once every request is answered, no other went out.
    await act(() => api.settled());
    expect(api.calls.filter((c) => c.path.startsWith('/api/rooms/room-1/messages'))).toHaveLength(1);
  });

  it('a message arriving while scrolled up counts on the scroll-to-bottom badge; the button goes back down', async () => {
    const live = chatLive();
    const Story = openWith({ live, api: pageApi() });
    const { container } = render(<Story />);
    await screen.findByText('Vocês entregam no sábado?');
    scrollLog(1200);
    const button = await screen.findByRole('button', { name: 'Ir para o fim' });
    act(() => live.push('messages', { added: [buildMessage({ id: 'room-1-new', createdAt: new Date().toISOString(), author: { id: 'contact-1', displayName: 'Maria Souza', type: 'client' }, text: 'Alguém aí?' }) as unknown as LiveRecord] }));
    expect(await screen.findByText('Alguém aí?')).toBeTruthy();
    await waitFor(() => expect(container.querySelector('[data-new-count]')!.getAttribute('data-new-count')).toBe('1'));
    fireEvent.click(button);
    expect(log().scrollTop).toBe(3000);
  });

  it("'recarregar' on a file whose download failed asks the server again, and the file shows", async () => {
    const live = chatLive();
    const failed = buildMessage({
      id: 'room-1-photo', createdAt: new Date().toISOString(), author: { id: 'contact-1', displayName: 'Maria Souza', type: 'client' },
      type: 'image', text: null, caption: 'Foto da caixa', error: { type: 'image', mediaId: 'media-9', mimeType: 'image/jpeg' },
    });
    const api = recordingApi({
      'GET /api/rooms/*': messagesPage(),
      'PATCH /api/rooms/*': { meta: { ok: true }, data: { ...failed, error: undefined, image: { imageUrl: '/api/files/acme/foto', caption: 'Foto da caixa', mimeType: 'image/jpeg' } } },
    });
    const Story = openWith({ live, api });
    render(<Story />);
    await screen.findByText('Vocês entregam no sábado?');
    act(() => live.push('messages', { added: [failed as unknown as LiveRecord] }));
    expect(await screen.findByText('Não foi possível baixar a imagem. Foto da caixa')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'recarregar' }));
    await waitFor(() => expect(api.calls.filter((c) => c.path.endsWith('/reloadMessage'))).toEqual([{ method: 'PATCH', path: '/api/rooms/room-1/reloadMessage', body: { messageId: 'room-1-photo' } }]));
    await waitFor(() => expect(screen.queryByText('Não foi possível baixar a imagem. Foto da caixa')).toBeNull());
    expect(screen.queryByRole('button', { name: 'recarregar' })).toBeNull();
  });

  it('clicking a reply quote loads older pages until the answered message shows and highlights it', async () => {
    const api = pageApi();
    const Story = openWith({ api });
    const { container } = render(<Story />);
    await screen.findByText('Mensagem 25 de Ana');
    const quote = container.querySelector('[data-message-id="room-1-m25"] [data-reply-preview]') as HTMLElement;
    fireEvent.click(quote);
    await waitFor(() => expect(container.querySelector('[data-message-id="room-1-m01"]')).toBeTruthy());
    await waitFor(() => expect(getComputedStyle(container.querySelector('[data-message-id="room-1-m01"] > div') as HTMLElement).outline).toContain('2px solid'));
  });

  it("menu of the agent's active chat: leave, transfer, queues, close, close without notice, mark read/unread, tags, copy link", async () => {
    render(<s.Open />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual(['Sair do chat', 'Transferir', 'Filas', 'Encerrar', 'Encerrar sem aviso', 'Marcar como lido', 'Tags', 'Copiar link do chat']);
  });

  it("a supervisor adds agents to the chat: 'Adicionar agentes' pushes them and says 'Agentes adicionados!'", async () => {
    const api = pageApi();
    const Story = composeStory(stories.SupervisorAddsAgents, { ...stories.default, parameters: { ...stories.SupervisorAddsAgents.parameters, api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Adicionar agentes' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Carla Suporte' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar agentes' }));
    await waitFor(() => expect(roomCalls(api).find((c) => c.path === '/api/rooms/room-1/push')?.body).toEqual({ agents: ['u-carla'] }));
    expect(await screen.findByText('Agentes adicionados!')).toBeTruthy();
  });

  it("a supervisor watching a team chat transfers it or moves its queue without entering it first", async () => {
    render(<s.SupervisorAddsAgents />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(expect.arrayContaining(['Entrar no chat', 'Transferir', 'Filas']));
  });

  it("a plain agent's menu has no 'Adicionar agentes'", async () => {
    render(<s.Open />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    expect(screen.queryByRole('menuitem', { name: 'Adicionar agentes' })).toBeNull();
  });

  it("close asks for a justification ('Escolha uma justificativa de encerramento!') and sends it", async () => {
    const api = pageApi();
    const Story = openWith({ api });
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Encerrar' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar' }));
    expect(within(dialog).getByText('Escolha uma justificativa de encerramento!')).toBeTruthy();
    expect(roomCalls(api).filter((c) => c.path.endsWith('/close'))).toHaveLength(0);
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'Resolvido' }));
    fireEvent.change(within(dialog).getByLabelText('Observação'), { target: { value: 'Pedido entregue' } });
    fireEvent.change(within(dialog).getByLabelText('Próximo contato (DD/MM/AAAA)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar' }));
    await waitFor(() => expect(roomCalls(api).find((c) => c.path === '/api/rooms/room-1/close')!.body).toEqual({ closedBy: { justify: 'Resolvido', obs: 'Pedido entregue' } }));
  });

  it('with reportOnly the justification is optional; close without notice calls closeNoMessage', async () => {
    const api = pageApi();
    const Story = openWith({ api, config: { ...appConfig, closeJustify: { ...appConfig.closeJustify, reportOnly: true } } });
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Encerrar sem aviso' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Encerrar' }));
    await waitFor(() => expect(roomCalls(api).find((c) => c.path === '/api/rooms/room-1/closeNoMessage')!.body).toEqual({ closedBy: { justify: null, obs: null } }));
  });

  it("'Marcar como lido' / leave call PATCH /api/rooms/:id and /pull", async () => {
    const api = pageApi();
    const Story = openWith({ api });
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Marcar como lido' }));
    await waitFor(() => expect(roomCalls(api).some((c) => c.path === '/api/rooms/room-1' && JSON.stringify(c.body) === '{"lastMessage":{"unread":false}}')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sair do chat' }));
    await waitFor(() => expect(roomCalls(api).some((c) => c.path === '/api/rooms/room-1/pull')).toBe(true));
  });

  it("a read chat offers 'Marcar como não lido', which sends unread true; disableSetUnread hides it", async () => {
    const api = pageApi();
    const Story = composeStory(stories.ReadChat, { ...stories.default, parameters: { ...stories.ReadChat.parameters, api } } as Parameters<typeof composeStory>[1]);
    const { unmount } = render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Marcar como não lido' }));
    await waitFor(() => expect(roomCalls(api).some((c) => c.path === '/api/rooms/room-1' && JSON.stringify(c.body) === '{"lastMessage":{"unread":true}}')).toBe(true));
    // The open chat does not mark itself read again (the answer says unread).
    await act(async () => { await new Promise((r) => setTimeout(r, 0)); });
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    expect(await screen.findByRole('menuitem', { name: 'Marcar como lido' })).toBeTruthy();
    expect(roomCalls(api).filter((c) => JSON.stringify(c.body) === '{"lastMessage":{"unread":false}}')).toHaveLength(0);
    unmount();
    render(<s.UnreadDisabled />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    expect(screen.queryByRole('menuitem', { name: 'Marcar como não lido' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Tags' })).toBeTruthy();
  });

  it("'Voltar ao início do bot' (backBeggining) posts /restart; 'Copiar link do chat' copies the public URL ('Copiado')", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = recordingApi({
      'GET /api/rooms/room-1/publicLink': { meta: { ok: true }, data: { path: '/chat/pub-room-1' } },
      'GET /api/rooms/*': messagesPage(),
      'POST /api/rooms/*': { meta: { ok: true }, data: { ...openRoom, agents: [], destination: 'bot', inAttend: false } },
      'GET /api/fixedMessages': [],
    });
    const Story = composeStory(stories.BotRestart, { ...stories.default, parameters: { ...stories.BotRestart.parameters, api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Copiar link do chat' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/chat/pub-room-1`));
    expect(await screen.findByText('Copiado')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Voltar ao início do bot' }));
    await waitFor(() => expect(roomCalls(api).some((c) => c.method === 'POST' && c.path === '/api/rooms/room-1/restart')).toBe(true));
  });

  it("disableRestartApp disables 'Voltar ao início do bot' for an agent", async () => {
    const Story = openWith({ config: { ...appConfig, claims: { ...appConfig.claims, backBeggining: true, disableRestartApp: true } } });
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    expect(screen.getByRole('menuitem', { name: 'Voltar ao início do bot' }).getAttribute('aria-disabled')).toBe('true');
  });

  it("a queued chat offers 'Entrar no chat' (push) instead of the composer", async () => {
    const api = recordingApi({ 'PATCH /api/rooms/*': { meta: { ok: true }, data: null } });
    const Story = composeStory(stories.Queued, { ...stories.default, parameters: { ...stories.Queued.parameters, api } } as Parameters<typeof composeStory>[1]);
    const { container } = render(<Story />);
    expect(container.querySelector('[data-composer]')).toBeNull();
    expect(screen.getByText('Entre no chat para enviar mensagens.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Entrar no chat' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PATCH' && c.path === '/api/rooms/room-3/push')).toBe(true));
  });

  it("'Entrar no chat': a push answer older than a live change of the room does not undo it", async () => {
    const queued = stories.Queued.parameters!.room as Room;
    const createdAt = queued.lifeControl.createdAt;
    let answer!: () => void;
    const api = recordingApi({
      'PATCH /api/rooms/*': () => new Promise((resolve) => { answer = () => resolve({ meta: { ok: true }, data: { ...queued, agents: [{ id: agentUser.id, displayName: agentUser.displayName }], inAttend: true, lifeControl: { createdAt, updatedAt: '2026-11-20T15:00:01.000Z' } } }); }),
    });
    const live = chatLive(queued);
    const Story = composeStory(stories.Queued, { ...stories.default, parameters: { ...stories.Queued.parameters, api, live } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Entrar no chat' }));
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    // Meanwhile the contact renamed themself: the live room is newer than the push answer.
    act(() => live.push('rooms', { modified: [{ ...queued, author: { ...queued.author, displayName: 'Cliente Três' }, agents: [{ id: agentUser.id, displayName: agentUser.displayName }], inAttend: true, lifeControl: { createdAt, updatedAt: '2026-11-20T15:00:02.000Z' } } as unknown as LiveRecord] }));
    expect(await screen.findByRole('heading', { name: 'Cliente Três' })).toBeTruthy();
    await act(async () => answer());
    expect(screen.getByRole('heading', { name: 'Cliente Três' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Digite uma mensagem' })).toBeTruthy();
  });

  it("a chat that is now a colleague's closes itself for the agent; a supervisor of its department, an admin or the tenant's disableHideLoadedChat keep it", async () => {
    const stores = s.TransferredAway.parameters!.stores as ReturnType<typeof createConsoleStores>;
    render(<s.TransferredAway />);
    await waitFor(() => expect(stores.ui.get().openRooms).toEqual([]));
    const room = s.TransferredAway.parameters!.room as Room;
    expect(hidesLoadedChat(agentUser, room, appConfig)).toBe(true);
    expect(hidesLoadedChat(supervisorUser, room, appConfig)).toBe(false);
    expect(hidesLoadedChat({ ...agentUser, claims: { admin: true } }, room, appConfig)).toBe(false);
    expect(hidesLoadedChat({ ...agentUser, claims: { enableAllQueuesTab: true } }, room, appConfig)).toBe(false);
    expect(hidesLoadedChat(agentUser, room, { ...appConfig, claims: { ...appConfig.claims, disableHideLoadedChat: true } })).toBe(false);
    expect(hidesLoadedChat(agentUser, { ...room, agents: [] }, appConfig)).toBe(false);
    expect(hidesLoadedChat(agentUser, { ...room, agents: [...room.agents, { id: agentUser.id, displayName: agentUser.displayName }] }, appConfig)).toBe(false);
  });

  it('a closed chat offers only the contact and the tags and has no composer; the read-only variant has no menu and no close', async () => {
    const closed = render(<s.Closed />);
    expect(closed.container.querySelector('[data-composer]')).toBeNull();
    // The history header tells when the chat was opened and closed (seed 001 §2 "Chat history").
    expect(closed.container.querySelector('[data-history-range]')!.textContent).toMatch(/^De \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2} a \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/);
    // And who closed it with what they wrote.
    expect(closed.container.querySelector('[data-closed-by]')!.textContent).toBe(`Encerrado por ${agentUser.displayName} · Resolvido · Obs.: Cliente volta na segunda · Próximo contato: 07/12/2026`);
    fireEvent.click(screen.getByRole('button', { name: 'Opções do chat' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Contato', 'Tags']);
    closed.unmount();
    const ro = render(<s.ReadOnly />);
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Opções do chat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ocultar chat' })).toBeNull();
    expect(ro.container.querySelector('[data-composer]')).toBeNull();
  });

  it("a send that fails shows 'Erro no Envio'-style failure with resend, which posts again with the same idempotency key", async () => {
    let attempts = 0;
    const api = pageApi({
      'POST /api/rooms/room-1/message': (call: { body: { text: string; clientId: string } }) => {
        attempts += 1;
        if (attempts === 1) return new Error('Não foi possivel contactar o sistema');
        return { meta: { ok: true, created: true }, data: { ...conversationMessage(40), id: 'stored-1', text: call.body.text, author: { id: 'u-ana', displayName: 'Ana Agente', type: 'agent' }, status: { sent: true } } };
      },
    });
    const Story = openWith({ api });
    const { container } = render(<Story />);
    await screen.findByText('Vocês entregam no sábado?');
    const box = screen.getByRole('textbox', { name: 'Digite uma mensagem' });
    fireEvent.change(box, { target: { value: 'Entregamos sim!' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const resend = await screen.findByRole('button', { name: 'Reenviar' });
    expect(container.querySelector('[data-delivery="failed"]')).toBeTruthy();
    fireEvent.click(resend);
    await waitFor(() => expect(container.querySelector('[data-message-id="stored-1"]')).toBeTruthy());
    const posts = api.calls.filter((c) => c.path === '/api/rooms/room-1/message');
    expect(posts).toHaveLength(2);
    expect((posts[0]!.body as { clientId: string }).clientId).toBe((posts[1]!.body as { clientId: string }).clientId);
    expect(container.querySelectorAll('[data-message-id^="pending:"]')).toHaveLength(0);
  });

  it("a send's HTTP answer arriving after the live 'read' does not undo it (the browser test caught this)", async () => {
    let answer!: () => void;
    const createdAt = new Date(Date.now() - 5_000).toISOString();
    const stored = { ...conversationMessage(41), id: 'stored-2', text: 'Já saiu para entrega', author: { id: 'u-ana', displayName: 'Ana Agente', type: 'agent' as const }, lifeControl: { createdAt } };
    const api = pageApi({
      'POST /api/rooms/room-1/message': (call: { body: { clientId: string } }) =>
        new Promise((resolve) => { answer = () => resolve({ meta: { ok: true, created: true }, data: { ...stored, idempotencyKey: call.body.clientId, status: { sent: true } } }); }),
    });
    const live = chatLive();
    const Story = openWith({ api, live });
    const { container } = render(<Story />);
    await screen.findByText('Vocês entregam no sábado?');
    const box = screen.getByRole('textbox', { name: 'Digite uma mensagem' });
    fireEvent.change(box, { target: { value: 'Já saiu para entrega' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    // The contact read it before the POST answered: the live change is newer (lifeControl.updatedAt).
    const readAt = new Date(Date.parse(createdAt) + 2_000).toISOString();
    const clientId = (api.calls.find((c) => c.path === '/api/rooms/room-1/message')!.body as { clientId: string }).clientId;
    act(() => live.push('messages', { added: [{ ...stored, clientId, roomId: 'room-1', status: { sent: true, delivered: true, read: true, readAt }, lifeControl: { createdAt, updatedAt: readAt } } as unknown as LiveRecord] }));
    await waitFor(() => expect(container.querySelector('[data-message-id="stored-2"] [data-delivery]')!.getAttribute('data-delivery')).toBe('read'));
    // The live record carries the send's clientId: the pending bubble gives way at once, never two bubbles.
    expect(container.querySelectorAll('[data-message-id^="pending:"]')).toHaveLength(0);
    expect(screen.getAllByText('Já saiu para entrega')).toHaveLength(1);
    await act(async () => answer());
    await waitFor(() => expect(container.querySelectorAll('[data-message-id^="pending:"]')).toHaveLength(0));
    expect(container.querySelector('[data-message-id="stored-2"] [data-delivery]')!.getAttribute('data-delivery')).toBe('read');
  });

  it("edits an own message in 'Editar mensagem' and deletes one ('Mensagem apagada')", async () => {
    const own = conversationMessage(27);
    const api = pageApi({
      'POST /api/rooms/room-1/message': (call: { body: { text: string } }) => ({ meta: { ok: true, created: true }, data: { ...own, text: call.body.text, versions: [{ text: own.text, editedAt: '', editedBy: 'u-ana' }] } }),
      'POST /api/zApi/deleteMessage': { data: { ...conversationMessage(25), status: { sent: true, deleted: true } } },
    });
    const Story = openWith({ api });
    const { container } = render(<Story />);
    await screen.findByText('Mensagem 27 de Ana');
    const bubble = container.querySelector('[data-message-id="room-1-m27"]') as HTMLElement;
    fireEvent.click(within(bubble).getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar mensagem' });
    const save = within(dialog).getByRole('button', { name: 'Salvar' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Mensagem 27 corrigida' } });
    fireEvent.click(save);
    expect(await screen.findByText('Mensagem 27 corrigida')).toBeTruthy();
    expect(api.calls.find((c) => c.path === '/api/rooms/room-1/message')!.body).toMatchObject({ text: 'Mensagem 27 corrigida', editMessageId: 'room-1-m27' });

    // The dialog hides the rest of the page from assistive tech (aria-hidden) until it has closed.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar mensagem' })).toBeNull());
    const other = container.querySelector('[data-message-id="room-1-m25"]') as HTMLElement;
    fireEvent.click(within(other).getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Excluir' }));
    await waitFor(() => expect(within(container.querySelector('[data-message-id="room-1-m25"]') as HTMLElement).getByText('Mensagem apagada')).toBeTruthy());
    expect(api.calls.find((c) => c.path === '/api/zApi/deleteMessage')!.body).toEqual({ roomId: 'room-1', messageIntId: 'room-1-m25', messageId: 'room-1-ext25', channelId: 'webchat-site', phone: '5511987654321' });
  });

  it("on hold (enableChatOnHold): the button opens 'Chat em espera' and sends the chosen message; on hold, it switches it off", async () => {
    const user = userEvent.setup();
    const api = s.HoldAvailable.parameters!.api as ReturnType<typeof recordingApi>;
    const view = render(<s.HoldAvailable />);
    await user.click(screen.getByRole('button', { name: 'Chat em espera' }));
    const dialog = await screen.findByRole('dialog', { name: 'Chat em espera' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Por favor, aguarde um instante enquanto verifico.' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PATCH' && (c.body as { onHold?: unknown }).onHold).map((c) => c.body)).toEqual([{ onHold: { active: true, message: 'Por favor, aguarde um instante enquanto verifico.' } }]));
    view.unmount();
    render(<s.OnHold />);
    expect(screen.getByRole('button', { name: 'Retirar chat da espera' }).getAttribute('aria-pressed')).toBe('true');
  });
});
