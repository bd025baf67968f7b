import type { Meta, StoryObj } from '@storybook/react';
import type { RoomTabId } from '@atendimento/schemas';
import { ChatListPanel } from './ChatListPanel';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import { agentUser, room, rooms, supervisorUser } from '../../fixtures/chatFixtures';
import type { LiveRecord } from '../../realtime/liveSource';

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
