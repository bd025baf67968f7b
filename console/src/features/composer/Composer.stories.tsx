import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import { Composer } from './Composer';
import { StoryConsole, recordingApi, type RecordedCall } from '../../fixtures/StoryConsole';
import { createConsoleStores } from '../../store/consoleStores';
import { agentUser, appConfig, rooms } from '../../fixtures/chatFixtures';
import { conversationMessage, openRoom } from '../../fixtures/conversation';
import { useChatActions } from '../open-chat/useChatActions';
import type { ChatMessage, Room } from '../../model/chat';

/** Fixed messages of the tenant (GET /api/fixedMessages). */
export const fixedMessages = [
  { id: 'fm-1', tag: 'saudacao', message: 'Olá! Como posso ajudar?', active: true },
  { id: 'fm-2', tag: 'horario', message: 'Atendemos de segunda a sexta, das 8h às 18h.', active: true },
  { id: 'fm-3', tag: 'catalogo', message: 'Segue nosso catálogo.', fileUrl: '/files/catalogo.pdf', fileName: 'catalogo.pdf', active: true },
];

export const composerApi = () =>
  recordingApi({
    'POST /api/rooms/*': (call: RecordedCall) => ({ meta: { ok: true, created: true }, data: { ...conversationMessage(50), id: `stored-${Math.random().toString(36).slice(2, 8)}`, text: (call.body as { text?: string })?.text ?? null } }),
    'GET /api/fixedMessages': fixedMessages,
  });

/** The composer with the real actions of its room (calls go to the story's recording API). */
function ComposerHarness({ room, reply }: { room: Room; reply?: ChatMessage | null }) {
  const actions = useChatActions(room);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(reply ?? null);
  return <Composer room={room} actions={actions} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />;
}

const meta: Meta<typeof ComposerHarness> = {
  title: 'Console/Composer',
  component: ComposerHarness,
  args: { room: openRoom },
  decorators: [(Story, ctx) => (
    <StoryConsole user={agentUser} config={ctx.parameters.config ?? appConfig} api={ctx.parameters.api ?? composerApi()} stores={createConsoleStores({ rooms: [ctx.args.room as Room] })}>
      <div style={{ width: 640, marginTop: 320 }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof ComposerHarness>;

export const Empty: Story = {};
/** Answering a contact message: the preview sits above the box. */
export const Replying: Story = { args: { reply: conversationMessage(28) } };
/** Contact blocked for sending: only internal notes can be written. */
export const BlockedContact: Story = { args: { room: rooms[3]! } };
/** Without the fixedMessages claim '/' is just text. */
export const WithoutFixedMessages: Story = { parameters: { config: { ...appConfig, claims: { ...appConfig.claims, fixedMessages: false } } } };
