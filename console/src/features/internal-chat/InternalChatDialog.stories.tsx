import type { Meta, StoryObj } from '@storybook/react';
import { InternalChatDialog } from './InternalChatDialog';

/** Every confirmation of the stories' dialog (specs read it). */
export const confirmed: { agents: string[]; name: string | null }[] = [];

const agents = [
  { id: 'u-bia', displayName: 'Bia Suporte', online: true },
  { id: 'u-caio', displayName: 'Caio Vendas', online: false },
  { id: 'u-dani', displayName: 'Dani Financeiro', online: true },
];

const meta: Meta<typeof InternalChatDialog> = {
  title: 'Console/InternalChatDialog',
  component: InternalChatDialog,
  args: {
    open: true,
    mode: 'start',
    agents,
    onCancel: () => undefined,
    onConfirm: (ids: string[], name: string | null) => {
      confirmed.push({ agents: ids, name });
      return true;
    },
  },
};
export default meta;
type Story = StoryObj<typeof InternalChatDialog>;

/** Starting a chat: pick agents; a group name only with more than one. */
export const Start: Story = {};
/** Adding agents to an open internal chat: its members are not offered. */
export const AddAgents: Story = { args: { mode: 'add', exclude: ['u-bia'] } };
