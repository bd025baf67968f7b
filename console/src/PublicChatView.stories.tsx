import type { Meta, StoryObj } from '@storybook/react';
import { PublicChatView } from './PublicChatView';
import { recordingApi, type RecordedCall } from './fixtures/StoryConsole';
import { staticLive } from './fixtures/staticLive';
import { NOW } from './fixtures/chatFixtures';
import { liveWindow, messagesPage, openRoom } from './fixtures/conversation';
import type { LiveRecord } from './realtime/liveSource';

export const publicApi = () =>
  recordingApi({
    'POST /api/auth/anonymous': (call: RecordedCall) =>
      (call.body as { roomToken: string }).roomToken === openRoom.publicToken
        ? { data: { accessToken: 'anon-token', expiresIn: 3600, roomId: openRoom.id } }
        : Object.assign(new Error('Registro não encontrado.'), { status: 404 }),
    'GET /api/rooms/*': messagesPage(),
  });

const meta: Meta<typeof PublicChatView> = {
  title: 'Console/PublicChatView',
  component: PublicChatView,
  args: { roomToken: openRoom.publicToken, now: () => NOW },
  render: (args, ctx) => (
    <PublicChatView
      {...args}
      api={ctx.parameters.api ?? publicApi()}
      live={staticLive({ rooms: () => [openRoom as unknown as LiveRecord], messages: () => liveWindow as unknown as LiveRecord[] })}
    />
  ),
};
export default meta;
type Story = StoryObj<typeof PublicChatView>;

export const ReadOnlyChat: Story = {};
export const UnknownToken: Story = { args: { roomToken: 'token-que-nao-existe' } };
