import type { Meta, StoryObj } from '@storybook/react';
import { MailThreadPane } from './MailThreadPane';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import { createConsoleStores } from '../../store/consoleStores';
import { agentUser, appConfig } from '../../fixtures/chatFixtures';
import type { LiveRecord } from '../../realtime/liveSource';
import type { ChatMessage, Room } from '../../model/chat';
import { autoReplyMail, mailRoom, mailThread, shortThread } from './mailFixtures';

export const mailLive = (r: Room, msgs: ChatMessage[]) => staticLive({ rooms: () => [r as unknown as LiveRecord], messages: (id) => (id === r.id ? (msgs as unknown as LiveRecord[]) : []) });
export const mailApi = (r: Room = mailRoom) =>
  recordingApi({
    'GET /api/rooms/*': { meta: { before: null }, data: [] },
    'POST /api/mail/*': (call: { body: unknown }) => ({ meta: { ok: true, created: true }, data: { ...mailThread[1], id: 'reply-new', text: 'Resposta', mail: { ...mailThread[1]!.mail, html: (call.body as { message: string }).message } } }),
    'PATCH /api/rooms/*': { meta: { ok: true }, data: r },
  });

const meta: Meta<typeof MailThreadPane> = {
  title: 'Console/MailThreadPane',
  component: MailThreadPane,
  args: { room: mailRoom },
  decorators: [(Story, ctx) => {
    const msgs: ChatMessage[] = ctx.parameters.messages ?? mailThread;
    const r: Room = ctx.args.room ?? mailRoom;
    return (
      <StoryConsole user={agentUser} config={appConfig} live={ctx.parameters.live ?? mailLive(r, msgs)} api={ctx.parameters.api ?? mailApi(r)} stores={ctx.parameters.stores ?? createConsoleStores({ rooms: [r] })}>
        <div style={{ width: 760, height: 720 }}><Story /></div>
      </StoryConsole>
    );
  }],
};
export default meta;
type Story = StoryObj<typeof MailThreadPane>;

/** Five mails: the first two, 'Expandir +2', the last; a failed reply shows its error and 'Reenviar'. */
export const Collapsed: Story = {};
/** The same thread with a recording API a spec reads ('Reenviar' calls resendMessage). */
export const resendApi = mailApi();
export const Resend: Story = { parameters: { api: resendApi } };
/** Two mails: all shown. */
export const Short: Story = { parameters: { messages: shortThread } };
/** An auto-reply is marked ('Resposta automática'). */
export const AutoReply: Story = { parameters: { messages: [autoReplyMail] } };
/** A closed thread: no 'Responder'. */
export const Closed: Story = { args: { room: { ...mailRoom, active: false } } };
