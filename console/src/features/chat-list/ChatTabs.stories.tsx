import type { Meta, StoryObj } from '@storybook/react';
import { ChatTabs } from './ChatTabs';

const meta: Meta<typeof ChatTabs> = {
  title: 'Console/ChatTabs',
  component: ChatTabs,
  args: {
    tabs: ['contacts', 'userChats', 'queuesChats', 'chatsHistories', 'internalChats'],
    value: 'queuesChats',
    counts: { userChats: { total: 4, unread: 2 }, queuesChats: { total: 1, unread: 1 }, chatsHistories: { total: 12, unread: 0 } },
    onChange: () => undefined,
  },
  decorators: [(Story) => <div style={{ height: 520, display: 'flex', border: '1px solid #ddd', width: 120 }}><Story /></div>],
};
export default meta;
type Story = StoryObj<typeof ChatTabs>;

/** An agent's tabs with 'Fila' selected: red unread and green total badges. */
export const Agent: Story = {};
/** A supervisor also has 'Equipe'; counters not yet arrived show 0. */
export const SupervisorNoCounters: Story = { args: { tabs: ['contacts', 'userChats', 'queuesChats', 'teamChats', 'chatsHistories', 'internalChats'], value: 'userChats', counts: {} } };
