import type { Meta, StoryObj } from '@storybook/react';
import { MessageList, type MessageActions } from './MessageList';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { createConsoleStores } from '../../store/consoleStores';
import { agentUser, appConfig } from '../../fixtures/chatFixtures';
import { messagesPage, openRoom } from '../../fixtures/conversation';
import type { ChatMessage, Room } from '../../model/chat';
import { chatLive } from './ChatPane.stories';

const chosen: { action: keyof MessageActions; id: string }[] = [];
/** The message actions the stories' list called (specs assert on them). */
export function chosenActions(): { action: keyof MessageActions; id: string }[] {
  return chosen;
}
const record = (action: keyof MessageActions) => (m: ChatMessage) => void chosen.push({ action, id: m.id });

const meta: Meta<typeof MessageList> = {
  title: 'Console/MessageList',
  component: MessageList,
  args: {
    room: openRoom,
    actions: { onReply: record('onReply'), onEdit: record('onEdit'), onDelete: record('onDelete'), onResend: record('onResend') },
  },
  decorators: [(Story, ctx) => {
    const r: Room = ctx.args.room ?? openRoom;
    return (
      <StoryConsole
        user={agentUser}
        config={appConfig}
        live={ctx.parameters.live ?? chatLive(r)}
        api={ctx.parameters.api ?? recordingApi({ 'GET /api/rooms/*': messagesPage() })}
        stores={createConsoleStores({ rooms: [r] })}
        readOnly={ctx.parameters.readOnly}
      >
        <div style={{ width: 640, height: 560, display: 'flex', flexDirection: 'column' }}><Story /></div>
      </StoryConsole>
    );
  }],
};
export default meta;
type Story = StoryObj<typeof MessageList>;

/** The newest 20 messages, the unread divider before the last two, older pages on scrolling up. */
export const Conversation: Story = {};

/** Both tries of an older page fail: 'Não foi possivel carregar o chat...'. */
export const LoadFailed: Story = {
  parameters: { api: recordingApi({ 'GET /api/rooms/*': new Error('offline') }) },
};

/** The public read-only chat: no message options. */
export const ReadOnly: Story = { parameters: { readOnly: true } };
