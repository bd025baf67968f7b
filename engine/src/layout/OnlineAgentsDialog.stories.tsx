import type { Meta, StoryObj } from '@storybook/react';
import { OnlineAgentsDialog } from './OnlineAgentsDialog';
import { withShell } from '../stories/StoryShell';
import { storyConfig } from '../stories/fixtures';

const meta = {
  title: 'Moldura/Agentes Online',
  component: OnlineAgentsDialog,
  decorators: [withShell],
  args: {
    open: true,
    onClose: () => undefined,
    config: storyConfig(),
    agents: [
      { id: 'u-admin', displayName: 'Ana Administradora', email: 'admin@acme.test', photoUrl: null, status: 'online' },
      { id: 'u-supervisor', displayName: 'Sérgio Supervisor', email: 'supervisor@acme.test', photoUrl: null, status: 'ausente' },
    ],
  },
} satisfies Meta<typeof OnlineAgentsDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two agents online, each with their status. */
export const Default: Story = {};

/** Nobody online. */
export const Empty: Story = { args: { agents: [] } };

/** Still loading. */
export const Loading: Story = { args: { agents: null } };
