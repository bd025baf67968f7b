import type { Meta, StoryObj } from '@storybook/react';
import type { RoomTabId } from '@atendimento/schemas';
import { ChatListPanel } from './ChatListPanel';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import { adminUser, agentUser, appConfig, room, rooms, supervisorUser } from '../../fixtures/chatFixtures';
import type { LiveRecord } from '../../realtime/liveSource';
import { createConsoleStores } from '../../store/consoleStores';

const byTab: Partial<Record<RoomTabId, LiveRecord[]>> = {
  userChats: [rooms[0]!, rooms[1]!, rooms[3]!] as unknown as LiveRecord[],
  queuesChats: [rooms[2]!] as unknown as LiveRecord[],
  chatsHistories: [rooms[4]!] as unknown as LiveRecord[],
};

const meta: Meta<typeof ChatListPanel> = {
  title: 'Console/ChatListPanel',
  component: ChatListPanel,
  args: { onOpenRoom: () => undefined },
  decorators: [(Story, ctx) => (
    <StoryConsole
      user={ctx.parameters.user ?? agentUser}
      live={ctx.parameters.live ?? staticLive({ rooms: (q) => byTab[q.tab as RoomTabId] ?? [] })}
      stores={ctx.parameters.stores}
      config={ctx.parameters.config}
      api={ctx.parameters.api ?? recordingApi({ 'GET /api/counter': { data: { tabs: { userChats: { total: 3, unread: 1 }, queuesChats: { total: 1, unread: 1 } }, queues: {}, at: '' } }, 'GET /api/read': { data: { unreadChats: 1, unreadMessages: 1, chats: 3, at: '' } } })}
    >
      <div style={{ width: 480, height: 720 }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof ChatListPanel>;

export const MyChats: Story = {};
export const Supervisor: Story = { parameters: { user: supervisorUser } };
/** The filter menu's options come from the tenant's live users, departments and tags. */
const filterCollections: Record<string, LiveRecord[]> = {
  users: [{ id: 'u-ana', displayName: 'Ana Agente', active: true }, { id: 'u-bia', displayName: 'Bia Agente', active: true }],
  departaments: [{ id: 'vendas', displayName: 'Vendas', active: true }, { id: 'suporte', displayName: 'Suporte', active: true }],
  tags: [{ id: 'tag-vip', name: 'VIP', active: true }, { id: 'tag-urgente', name: 'Urgente', active: true }],
  channels: [{ id: 'whatsapp-comercial', displayName: 'WhatsApp Comercial' }, { id: 'site', displayName: 'Chat do site' }],
};
export const Filters: Story = {
  parameters: { live: staticLive({ rooms: (q) => byTab[q.tab as RoomTabId] ?? [], collections: filterCollections }) },
};
/** An admin also narrows by NPS (reads the survey answers). */
export const FiltersAsAdmin: Story = {
  parameters: { user: adminUser, live: staticLive({ rooms: (q) => byTab[q.tab as RoomTabId] ?? [], collections: filterCollections }) },
};
/** 'Todas Filas' with the queue chips from GET /api/counter `queues`. */
export const AllQueues: Story = {
  parameters: {
    user: { ...agentUser, claims: { ...agentUser.claims, enableAllQueuesTab: true } },
    // The counters poll (ServiceView's) has brought the waiting chats per queue.
    stores: createConsoleStores({ ui: { tab: 'allQueuesChats', queueCounts: { deptovendas: 2, deptosuporte: 1 } } }),
    live: staticLive({ rooms: (q) => (q.tab === 'allQueuesChats' ? [rooms[2]!] as unknown as LiveRecord[] : byTab[q.tab as RoomTabId] ?? []), collections: filterCollections }),
    api: recordingApi({
      'GET /api/counter': { data: { tabs: { allQueuesChats: { total: 3, unread: 3 } }, queues: { deptovendas: 2, deptosuporte: 1 }, at: '' } },
      'GET /api/read': { data: { unreadChats: 0, unreadMessages: 0, chats: 0, at: '' } },
    }),
  },
};
/**
 * 'Histórico' of a salesman (claim vendHistory with an ERP user id): 'Meu Histórico' lists the
 * user's own closed chats; 'Hitorico dos meus clientes' the server's history of their clients.
 */
const clientChat = room(7, { active: false, author: { id: 'contact-7', displayName: 'Padaria do Cliente', phone: '5511955556666', chatId: '5511955556666' }, agents: [], agentsHistory: [{ id: 'u-bia', displayName: 'Bia Agente' }], lastMessage: { text: 'Pedido recebido, obrigado!', unread: false, createdAt: new Date(Date.now() - 86_400_000).toISOString() } });
export const SalesmanHistory: Story = {
  parameters: {
    user: { ...agentUser, erpUserId: 'V001', claims: { ...agentUser.claims, vendHistory: true } },
    stores: createConsoleStores({ ui: { tab: 'chatsHistories' } }),
    live: staticLive({ rooms: (q) => (q.tab !== 'chatsHistories' ? byTab[q.tab as RoomTabId] ?? [] : q.history === 'clients' ? [clientChat as unknown as LiveRecord] : [rooms[4]!] as unknown as LiveRecord[]) }),
  },
};
/**
 * The tenant's chatTabs (seed 001 §2, settings 'Visões'): 'Fila' first and renamed 'Aguardando',
 * 'Histórico' next, 'Interno' hidden; 'Equipe' listed but an agent is no supervisor, so it
 * stays away; the unlisted tabs follow in their default order.
 */
export const TenantTabs: Story = {
  parameters: {
    config: { ...appConfig, chatTabs: [{ id: 'queuesChats', label: 'Aguardando' }, { id: 'teamChats' }, { id: 'chatsHistories' }, { id: 'internalChats', hidden: true }] },
  },
};
export const EmptyTab: Story = { parameters: { live: staticLive({ rooms: () => [] }) } };
/** 100k rooms in 'Meus': the windowed list keeps only the visible cards in the DOM. */
export const HundredThousandRooms: Story = {
  parameters: {
    live: staticLive({ rooms: (q) => (q.tab === 'userChats' ? manyRooms() : []) }),
  },
};

let many: LiveRecord[] | null = null;
function manyRooms(): LiveRecord[] {
  many ??= Array.from({ length: 100_000 }, (_, i) => room(i + 10, { lastMessage: { text: `Mensagem ${i}`, createdAt: new Date(Date.parse('2026-11-20T15:00:00Z') - i * 60_000).toISOString() } }) as unknown as LiveRecord);
  return many;
}
