import type { Meta, StoryObj } from '@storybook/react';
import { ChatPane } from './ChatPane';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import { createConsoleStores } from '../../store/consoleStores';
import { agentUser, appConfig, room, rooms, supervisorUser } from '../../fixtures/chatFixtures';
import { liveWindow, messagesPage, openRoom } from '../../fixtures/conversation';
import type { LiveRecord } from '../../realtime/liveSource';
import type { Room } from '../../model/chat';

/** The live source of a story: the room and the newest page of its conversation. */
export const chatLive = (r: Room = openRoom, collections: Record<string, LiveRecord[]> = {}) =>
  staticLive({ rooms: () => [r as unknown as LiveRecord], messages: (id) => (id === r.id ? (liveWindow.map((m) => ({ ...m, roomId: r.id })) as unknown as LiveRecord[]) : []), collections });

/** The API of a story: older pages, and the room answered back by the room calls. */
export const chatApi = (r: Room = openRoom) =>
  recordingApi({
    'GET /api/rooms/*': messagesPage(),
    'PATCH /api/rooms/*': { meta: { ok: true }, data: r },
    'GET /api/fixedMessages': [],
  });

const meta: Meta<typeof ChatPane> = {
  title: 'Console/ChatPane',
  component: ChatPane,
  args: { roomId: openRoom.id },
  decorators: [(Story, ctx) => {
    const r: Room = ctx.parameters.room ?? openRoom;
    return (
      <StoryConsole
        user={ctx.parameters.user ?? agentUser}
        config={ctx.parameters.config ?? appConfig}
        live={ctx.parameters.live ?? chatLive(r)}
        api={ctx.parameters.api ?? chatApi(r)}
        stores={ctx.parameters.stores ?? createConsoleStores({ rooms: [r] })}
        readOnly={ctx.parameters.readOnly}
      >
        <div style={{ width: 760, height: 640 }}><Story /></div>
      </StoryConsole>
    );
  }],
};
export default meta;
type Story = StoryObj<typeof ChatPane>;

/** The agent's own chat with two unread contact messages and 30 messages (20 live, 10 on an older page). */
export const Open: Story = {};
/** A queued chat: the agent is not in it yet ('Entrar no chat'). */
export const Queued: Story = { args: { roomId: 'room-3' }, parameters: { room: { ...rooms[2]!, unreadCount: 1 } } };
/** A closed chat: the menu offers only the contact; no composer. */
export const Closed: Story = { args: { roomId: 'room-5' }, parameters: { room: rooms[4]! } };
/** One unread message: '1 MENSAGEM NÃO LIDA'. */
/** The chat became a colleague's (transferred away without staying): it closes itself (seed 001 §4 auto-hide). */
const colleagues = { ...openRoom, agents: [{ id: 'u-bia', displayName: 'Bia' }] };
export const TransferredAway: Story = {
  parameters: { room: colleagues, stores: createConsoleStores({ rooms: [colleagues], ui: { openRooms: [colleagues.id] } }) },
};

export const OneUnread: Story = { parameters: { room: { ...openRoom, unreadCount: 1 } } };
/** The public read-only variant: no menu, no close button, no composer. */
export const ReadOnly: Story = { parameters: { readOnly: true } };
/** A web-chat visitor's room (chat id is not a phone). */
export const WebchatVisitor: Story = {
  args: { roomId: 'room-60' },
  parameters: { room: room(60, { chatId: 'webchat:v-123', author: { displayName: 'Visitante', chatId: 'webchat:v-123', phone: null } }) },
};

/** Tenant claim enableChatOnHold: the on-hold button beside the menu; the chat is on hold. */
export const OnHold: Story = {
  parameters: {
    config: { ...appConfig, claims: { ...appConfig.claims, enableChatOnHold: true } },
    room: { ...openRoom, onHold: { active: true, message: 'Por favor, aguarde um instante enquanto verifico.' } },
  },
};

/** Tenant claim enableChatOnHold on a chat not on hold: the button opens 'Chat em espera'. */
export const HoldAvailable: Story = {
  parameters: {
    config: { ...appConfig, claims: { ...appConfig.claims, enableChatOnHold: true } },
    api: recordingApi({
      'GET /api/rooms/*': messagesPage(),
      'PATCH /api/rooms/*': { meta: { ok: true }, data: openRoom },
      'GET /api/fixedMessages': [{ id: 'fm-1', message: 'Por favor, aguarde um instante enquanto verifico.', tag: 'aguarde', active: true }],
    }),
  },
};

/** The agents the 'Adicionar agentes' dialog lists (the live presence collection). */
export const presenceAgents = [
  { id: 'u-carla', displayName: 'Carla Suporte', online: true, active: true },
  { id: 'u-bruno', displayName: 'Bruno Vendas', online: false, active: true },
] as unknown as LiveRecord[];

/** A supervisor of Vendas on a Vendas chat: 'Adicionar agentes' in the menu ('Agentes adicionados!'). */
export const SupervisorAddsAgents: Story = {
  parameters: {
    user: supervisorUser,
    room: { ...openRoom, agents: [{ id: agentUser.id, displayName: agentUser.displayName }] },
    live: chatLive({ ...openRoom, agents: [{ id: agentUser.id, displayName: agentUser.displayName }] }, { presence: presenceAgents }),
  },
};

/** A read chat: the menu offers 'Marcar como não lido'. */
export const ReadChat: Story = {
  parameters: { room: { ...openRoom, unreadCount: 0, lastMessage: { ...openRoom.lastMessage!, unread: false } } },
};

/** Tenant claim disableSetUnread on a read chat: no 'Marcar como não lido' for a non-admin. */
export const UnreadDisabled: Story = {
  parameters: {
    config: { ...appConfig, claims: { ...appConfig.claims, disableSetUnread: true } },
    room: { ...openRoom, unreadCount: 0, lastMessage: { ...openRoom.lastMessage!, unread: false } },
  },
};

/** Tenant claim backBeggining: 'Voltar ao início do bot' in the menu (and 'Copiar link do chat'). */
export const BotRestart: Story = {
  parameters: { config: { ...appConfig, claims: { ...appConfig.claims, backBeggining: true } } },
};
