import type { Meta, StoryObj } from '@storybook/react';
import Box from '@mui/material/Box';
import { StatusMenu } from './StatusMenu';
import { withShell } from '../stories/StoryShell';
import { withPresence, storedStatusEntry } from '../stories/presence';
import { adminUser, agentUser, storyConfig } from '../stories/fixtures';
import type { FakeCall } from '../stories/fakeApi';

const meta = {
  title: 'Moldura/Barra de status',
  component: StatusMenu,
  decorators: [
    (Story) => (
      <Box sx={{ bgcolor: 'primary.main', color: 'common.white', p: 1, display: 'flex', justifyContent: 'flex-end' }}>
        <Story />
      </Box>
    ),
    withPresence,
    withShell,
  ],
  args: { user: agentUser, config: storyConfig() },
  parameters: { shell: { path: '/', user: agentUser } },
} satisfies Meta<typeof StatusMenu>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An agent online (the default status). */
export const Online: Story = {};

/** The agent chose 'ausente' earlier on this browser. */
export const Away: Story = { parameters: { shell: { path: '/', user: agentUser, storage: storedStatusEntry(agentUser.id, 'ausente') } } };

/**
 * The agent chose 'ausente' on the phone while this tab still says online: the next heartbeat
 * is answered with the phone's choice, and the bar shows it.
 */
export const ChosenOnAnotherDevice: Story = {
  parameters: {
    presenceTiming: { firstBeatMs: 20, heartbeatMs: 60 },
    shell: {
      path: '/',
      user: agentUser,
      api: {
        'POST /api/users/*': (call: FakeCall) => {
          const body = call.body as { status: string; heartbeat?: boolean };
          return { body: { data: { status: body.heartbeat ? 'ausente' : body.status } } };
        },
      },
    },
  },
};

/** Admins also get 'Sincronizar Templates'. */
export const Admin: Story = {
  args: { user: adminUser },
  parameters: {
    shell: {
      path: '/',
      user: adminUser,
      api: { 'POST /api/cronjob/proccess/syncTemplates': { body: { data: { synced: 3 } } } },
    },
  },
};
