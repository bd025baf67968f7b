import type { Meta, StoryObj } from '@storybook/react';
import { StatusPrompt } from './StatusPrompt';
import { withShell } from '../stories/StoryShell';
import { withPresence, storedStatusEntry } from '../stories/presence';
import { agentUser, storyConfig } from '../stories/fixtures';

const meta = {
  title: 'Moldura/Aviso de status na entrada',
  component: StatusPrompt,
  decorators: [withPresence, withShell],
  args: { user: agentUser, config: storyConfig() },
  parameters: { shell: { path: '/', user: agentUser } },
} satisfies Meta<typeof StatusPrompt>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Signing in with 'ausente' kept from last time: the prompt offers ONLINE. */
export const EnteringAway: Story = { parameters: { shell: { storage: storedStatusEntry(agentUser.id, 'ausente') } } };

/** Signing in online: no prompt. */
export const EnteringOnline: Story = {};

/** A stored status the tenant no longer lists: no prompt. */
export const UnknownStatus: Story = { parameters: { shell: { storage: storedStatusEntry(agentUser.id, 'em reunião') } } };
