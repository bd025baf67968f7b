import type { Meta, StoryObj } from '@storybook/react';
import type { RoomTabId } from '@atendimento/schemas';
import { ServiceView } from './ServiceView';
import { recordingApi } from './fixtures/StoryConsole';
import { staticLive } from './fixtures/staticLive';
import { agentUser, appConfig, contacts, NOW, rooms } from './fixtures/chatFixtures';
import { liveWindow, messagesPage, openRoom } from './fixtures/conversation';
import { createConsoleStores } from './store/consoleStores';
import type { LiveRecord } from './realtime/liveSource';

const all = [openRoom, ...rooms.slice(1)];
const byTab: Partial<Record<RoomTabId, typeof all>> = { userChats: [all[0]!, all[1]!, all[3]!], queuesChats: [all[2]!], chatsHistories: [all[4]!] };

/** Tabs, single rooms and messages of every room (the conversation, re-labelled per room). */
export const serviceLive = () =>
  staticLive({
    rooms: (q) => ((q.tab ? byTab[q.tab as RoomTabId] ?? [] : all) as unknown as LiveRecord[]),
    messages: (roomId) => liveWindow.map((m) => ({ ...m, id: `${roomId}:${m.id}`, roomId })) as unknown as LiveRecord[],
    // The Contatos tab's collection, as the hub scopes it for this agent (a group chat's contact among them).
    collections: { contacts: [...contacts, { id: 'contact-grupo', displayName: 'Grupo Compras', phone: null, email: null, photoUrl: null, group: true, active: true, blockedSending: false }] as unknown as LiveRecord[] },
  });

export const serviceApi = () =>
  recordingApi({
    'GET /api/counter': { data: { tabs: { userChats: { total: 3, unread: 1 }, queuesChats: { total: 1, unread: 1 } }, queues: {}, at: '' } },
    'GET /api/read': { data: { unreadChats: 1, unreadMessages: 2, chats: 3, at: '' } },
    'GET /api/contacts/contact-1': contacts[0],
    'GET /api/rooms': { meta: { tab: 'chatsHistories', next: null }, data: [] },
    'GET /api/rooms/*': messagesPage(),
    'PATCH /api/rooms/*': { meta: { ok: true }, data: openRoom },
  });

const meta: Meta<typeof ServiceView> = {
  title: 'Console/ServiceView',
  component: ServiceView,
  args: { user: agentUser, appConfig, now: () => NOW },
  decorators: [(Story) => <div style={{ width: 1440, height: 900 }}><Story /></div>],
  render: (args, ctx) => <ServiceView {...args} api={ctx.parameters.api ?? serviceApi()} live={ctx.parameters.live ?? serviceLive()} stores={args.stores ?? (ctx.parameters.ownStores ? undefined : (ctx.parameters.stores?.() ?? createConsoleStores()))} narrow={ctx.parameters.narrow} />,
};
export default meta;
type Story = StoryObj<typeof ServiceView>;

/** List on the left, nothing open yet. */
export const NoChatOpen: Story = {};
/** One chat open: the pane takes the whole right side, the contact drawer beside it. */
export const OneChat: Story = { parameters: { stores: () => createConsoleStores({ rooms: all, ui: { openRooms: ['room-1'], drawerRoomId: 'room-1' } }) } };
/** Two chats side by side, half the width each. */
export const TwoChats: Story = { parameters: { stores: () => createConsoleStores({ rooms: all, ui: { openRooms: ['room-1', 'room-2'], drawerRoomId: null } }) } };
/** As the app mounts it (its own stores): leaving for another screen and coming back keeps the tab and the open chats. */
export const AsMounted: Story = { parameters: { ownStores: true } };
/** The 'Contatos' tab of an agent without the contacts permission: the contacts listing them, from the live collection. */
export const ContactsTab: Story = { parameters: { stores: () => createConsoleStores({ rooms: all, ui: { tab: 'contacts' } }), api: serviceApi(), live: serviceLive() } };
/** At 1065 px or less: the list, or the open chat, one at a time. */
export const Narrow: Story = { parameters: { narrow: true } };
/** The address names a chat (`/?chat=room-2`, a reload or a shared link): it opens on arrival. */
export const ChatInAddress: Story = { args: { chatInAddress: 'room-2' } };
