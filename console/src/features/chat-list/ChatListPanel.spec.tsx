import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './ChatListPanel.stories';
import { recordingApi } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import { room, rooms } from '../../fixtures/chatFixtures';
import type { LiveRecord } from '../../realtime/liveSource';
import { createConsoleStores } from '../../store/consoleStores';

const s = composeStories(stories);
afterEach(() => vi.useRealTimers());

/** The 'MyChats' story with other services (a live source or an API of this test). */
const myChatsWith = (parameters: Record<string, unknown>) => composeStory(stories.MyChats, { ...stories.default, parameters } as Parameters<typeof composeStory>[1]);

const tabLabels = () => screen.getAllByRole('tab').map((t) => t.getAttribute('aria-label'));

describe('ChatListPanel (seed 001 §2 "Chat list panel")', () => {
  it('an agent sees Contatos, Meus, Fila, Histórico, Interno in order; a supervisor also Equipe', async () => {
    const { unmount } = render(<s.MyChats />);
    expect(tabLabels()).toEqual(['Contatos', 'Meus', 'Fila', 'Histórico', 'Interno']);
    unmount();
    render(<s.Supervisor />);
    expect(tabLabels()).toEqual(['Contatos', 'Meus', 'Fila', 'Equipe', 'Histórico', 'Interno']);
  });

  it("follows the tenant's chatTabs: listed order first, its label, hidden tabs gone, never a tab the claims deny", async () => {
    render(<s.TenantTabs />);
    expect(tabLabels()).toEqual(['Aguardando', 'Histórico', 'Contatos', 'Meus']);
    fireEvent.click(screen.getByRole('tab', { name: 'Aguardando' }));
    expect(await screen.findByText('Aguardando', { selector: 'h6' })).toBeTruthy();
  });

  it("lists the live snapshot of 'Meus' and shows red unread and green total badges from /api/counter", async () => {
    render(<s.MyChats />);
    expect(await screen.findByText('Maria Souza')).toBeTruthy();
    expect(screen.getByText('Carlos Lima')).toBeTruthy();
    await waitFor(() => {
      const meus = screen.getByRole('tab', { name: 'Meus' });
      expect(meus.querySelector('[data-badge="total"]')!.textContent).toBe('3');
      expect(meus.querySelector('.MuiBadge-badge')!.textContent).toBe('1');
    });
  });

  it("the open tab's badges follow its live list at once when the list holds the whole tab (the counters poll every 5 s)", async () => {
    const meus = () => screen.getByRole('tab', { name: 'Meus' });
    const live = staticLive({ rooms: (q) => (q.tab === 'userChats' ? [rooms[0]!, rooms[1]!, rooms[3]!] as unknown as LiveRecord[] : []) });
    const Story = myChatsWith({ live });
    render(<Story />);
    await waitFor(() => expect(meus().querySelector('[data-badge="total"]')!.textContent).toBe('3'));
    // The agent took Maria's chat elsewhere / it was closed: 'Meus' loses it live; /api/counter still says 3 and 1.
    act(() => live.push('rooms', { removed: ['room-1'] }));
    await waitFor(() => expect(meus().querySelector('[data-badge="total"]')!.textContent).toBe('2'));
    expect(meus().querySelector('.MuiBadge-badge')!.classList.contains('MuiBadge-invisible')).toBe(true);
    // Leaving the tab keeps what the live list knew (until the next poll answers).
    fireEvent.click(screen.getByRole('tab', { name: 'Histórico' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Histórico' }).getAttribute('aria-selected')).toBe('true'));
    expect(meus().querySelector('[data-badge="total"]')!.textContent).toBe('2');
  });

  it("a chat added live appears in 'Fila' without reload", async () => {
    const live = staticLive({ rooms: (q) => (q.tab === 'queuesChats' ? [room(3, { inAttend: false, agents: [] }) as unknown as LiveRecord] : []) });
    const Story = myChatsWith({ live });
    render(<Story />);
    fireEvent.click(screen.getByRole('tab', { name: 'Fila' }));
    expect(await screen.findByText('Cliente 3')).toBeTruthy();
    act(() => live.push('rooms', { added: [room(42, { inAttend: false, agents: [], author: { displayName: 'Visitante Novo' } }) as unknown as LiveRecord] }));
    expect(await screen.findByText('Visitante Novo')).toBeTruthy();
  });

  it("an empty tab says 'Esta lista está vazia'", async () => {
    render(<s.EmptyTab />);
    expect(await screen.findByText('Esta lista está vazia')).toBeTruthy();
  });

  it("'Não Lido' subscribes with the unread filter; the order toggle asks for the oldest first", async () => {
    const live = staticLive({ rooms: () => [] });
    const Story = myChatsWith({ live });
    render(<Story />);
    fireEvent.click(screen.getByText('Não Lido'));
    await waitFor(() => expect(live.queries.at(-1)!.query).toMatchObject({ tab: 'userChats', filter: { field: 'lastMessage.unread', op: '==', value: true } }));
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar mais antigos' }));
    await waitFor(() => expect(live.queries.at(-1)!.query).toMatchObject({ order: 'asc' }));
    expect(screen.getByRole('button', { name: 'Mostrar mais recentes' })).toBeTruthy();
  });

  it("search: under 3 letters says 'Favor informar pelo menos 3 letras'; a valid term searches after 1 s with 'Buscando'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let release!: () => void;
    const api = recordingApi({
      'POST /api/mongodb/search': () => new Promise((resolve) => { release = () => resolve({ meta: { count: 1, collection: 'rooms', busca: 'Mar', last: null }, data: ['room-77'], rooms: [room(77, { author: { displayName: 'Marta Achada' } })] }); }),
    });
    const Story = myChatsWith({ api });
    render(<Story />);
    const box = screen.getByRole('textbox', { name: 'Buscar chats' });
    fireEvent.change(box, { target: { value: 'Ma' } });
    expect(screen.getByText('Favor informar pelo menos 3 letras')).toBeTruthy();
    fireEvent.change(box, { target: { value: '(Mar)' } });
    await act(async () => { vi.advanceTimersByTime(900); });
    expect(api.calls.filter((c) => c.path === '/api/mongodb/search')).toHaveLength(0);
    await act(async () => { vi.advanceTimersByTime(200); });
    expect(api.calls.find((c) => c.path === '/api/mongodb/search')!.body).toEqual({ tab: 'userChats', text: 'Mar' });
    expect(screen.getByText('Buscando')).toBeTruthy();
    await act(async () => release());
    vi.useRealTimers();
    await waitFor(() => expect(screen.queryByText('Buscando')).toBeNull());
    expect(await screen.findByText('Marta Achada')).toBeTruthy();
  });

  it('the filter menu narrows the search by agents, departments, tags and channels from the live collections; NPS only for who reads surveys', async () => {
    const api = recordingApi({ 'POST /api/mongodb/search': { meta: { count: 0, collection: 'rooms', busca: '', last: null }, data: [], rooms: [] } });
    const Story = composeStory(stories.Filters, { ...stories.default, parameters: { ...stories.Filters.parameters, api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    fireEvent.click(screen.getByRole('button', { name: 'Filtros' }));
    // The menu and its fields are lazy chunks: wait for them before asking what is missing.
    const tags = await screen.findByRole('combobox', { name: 'Tags' }, { timeout: 5000 });
    expect(screen.queryByRole('slider', { name: 'NPS mínimo' })).toBeNull();
    fireEvent.mouseDown(tags);
    fireEvent.click(await screen.findByRole('option', { name: 'VIP' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Departamentos' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Canais' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Chat do site' }));
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/mongodb/search').at(-1)?.body).toEqual({ tab: 'userChats', departments: ['suporte'], tags: ['tag-vip'], channels: ['site'] }), { timeout: 3000 });
    // The Filtros button says three filters narrow the list.
    expect(document.querySelector('[data-active-filters]')?.textContent).toBe('3');
  });

  it('an admin gets the NPS range in the filter menu', async () => {
    render(<s.FiltersAsAdmin />);
    fireEvent.click(screen.getByRole('button', { name: 'Filtros' }));
    expect(await screen.findByRole('combobox', { name: 'Agentes' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByRole('slider').length).toBe(2);
  });

  it("'Todas Filas' shows the queue chips with their counts; a chip subscribes the list narrowed to that queue", async () => {
    const live = staticLive({ rooms: () => [], collections: { departaments: [{ id: 'vendas', displayName: 'Vendas' }, { id: 'suporte', displayName: 'Suporte' }] } });
    const stores = createConsoleStores({ ui: { tab: 'allQueuesChats', queueCounts: { deptovendas: 2, deptosuporte: 1 } } });
    // Story-level parameters win over the meta's: this test's live source and stores go on the story.
    const Story = composeStory({ ...stories.AllQueues, parameters: { ...stories.AllQueues.parameters, live, stores } }, stories.default);
    render(<Story />);
    fireEvent.click(await screen.findByRole('button', { name: 'Suporte (1)' }));
    await waitFor(() => expect(live.queries.some((q) => q.collection === 'rooms' && q.query.tab === 'allQueuesChats' && JSON.stringify(q.query.filter) === JSON.stringify({ field: 'queues', op: 'array-contains', value: 'deptosuporte' }))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Limpar filtro' }));
    expect(screen.queryByRole('button', { name: 'Limpar filtro' })).toBeNull();
  });

  it("a salesman toggles 'Meu Histórico' / 'Hitorico dos meus clientes' on Histórico; the clients' view asks the server for history 'clients'", async () => {
    const live = stories.SalesmanHistory.parameters!.live as ReturnType<typeof staticLive>;
    render(<s.SalesmanHistory />);
    const mine = await screen.findByRole('button', { name: 'Meu Histórico' });
    expect(mine.getAttribute('aria-pressed')).toBe('true');
    expect(await screen.findByText('Cliente 5')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hitorico dos meus clientes' }));
    expect(await screen.findByText('Padaria do Cliente')).toBeTruthy();
    expect(screen.queryByText('Cliente 5')).toBeNull();
    expect(live.queries.some((q) => q.collection === 'rooms' && q.query.tab === 'chatsHistories' && q.query.history === 'clients')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Meu Histórico' }));
    expect(await screen.findByText('Cliente 5')).toBeTruthy();
  });

  it('users without vendHistory or an ERP user id get no history toggles', async () => {
    const Story = composeStory({ ...stories.SalesmanHistory, parameters: { ...stories.SalesmanHistory.parameters, user: undefined, stores: createConsoleStores({ ui: { tab: 'chatsHistories' } }) } }, stories.default);
    render(<Story />);
    expect(await screen.findByText('Cliente 5')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Hitorico dos meus clientes' })).toBeNull();
  });

  it("selection mode: 'Encerrar' lists the chats, confirm posts massClose and toasts 'Chats Encerrados'", async () => {
    const api = recordingApi({ 'POST /api/rooms/massClose': { meta: { ok: true, message: 'Chats Encerrados', closed: 1 }, data: { closed: ['room-1'], skipped: [] } } });
    const Story = myChatsWith({ api });
    render(<Story />);
    await screen.findByText('Maria Souza');
    fireEvent.click(screen.getByRole('button', { name: 'Selecionar chats' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Selecionar chat 1001' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Selecionar chat 1002' }));
    fireEvent.click(screen.getByRole('button', { name: 'Encerrar' }));
    // The dialog (LazyDialog) and the console's snackbar load when they first open.
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 5000 });
    expect(within(dialog).getByText('Maria Souza')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remover Carlos Lima' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar' }));
    expect(await screen.findByText('Chats Encerrados', undefined, { timeout: 5000 })).toBeTruthy();
    expect(api.calls.find((c) => c.path === '/api/rooms/massClose')!.body).toEqual({ chatIds: ['room-1'], closedBy: { justify: 'Encerramento em massa' } });
  });

  it('new contact: Nome and Telefone with +55 (fixedDDI) start a chat', async () => {
    const onOpenRoom = vi.fn();
    const created = room(90);
    const api = recordingApi({ 'POST /api/rooms': { meta: { ok: true, created: true }, data: created } });
    const Story = myChatsWith({ api });
    render(<Story onOpenRoom={onOpenRoom} />);
    expect(screen.getByText('+55')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar conversa' }));
    expect(screen.getByText('Informe o nome de exibição')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'João' } });
    fireEvent.change(screen.getByLabelText('Telefone'), { target: { value: '(11) 98765-4321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar conversa' }));
    await waitFor(() => expect(onOpenRoom).toHaveBeenCalledWith(created));
    expect(api.calls.find((c) => c.path === '/api/rooms')!.body).toEqual({ contact: { displayName: 'João', phone: '+5511987654321' } });
  });

  it('renders 100k rooms with only a window of cards in the DOM', async () => {
    render(<s.HundredThousandRooms />);
    await screen.findByText('Cliente 10');
    const cards = document.querySelectorAll('[data-room-id]');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(40);
  });
});
