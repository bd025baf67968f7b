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
/** A supervisor with every tab (ten), in the height a 900 px window leaves the column. */
export const SupervisorAllTabs: Story = {
  args: {
    tabs: ['contacts', 'userChats', 'queuesChats', 'teamChats', 'userMailChat', 'mailChats', 'botChats', 'allQueuesChats', 'chatsHistories', 'internalChats'],
    value: 'userChats',
    counts: { userChats: { total: 2, unread: 1 }, queuesChats: { total: 8, unread: 8 }, teamChats: { total: 19, unread: 8 }, botChats: { total: 3, unread: 3 }, allQueuesChats: { total: 12, unread: 12 } },
  },
  decorators: [(Story) => <div style={{ height: 580, display: 'flex', border: '1px solid #ddd', width: 120 }}><Story /></div>],
};
/** Totals past 999 are shortened to fit beside the icon (100.000 rooms in 'Fila' read "100k"); the exact number is the badge's title. */
export const LargeCounts: Story = {
  args: {
    tabs: ['contacts', 'userChats', 'queuesChats', 'allQueuesChats', 'chatsHistories', 'internalChats'],
    value: 'queuesChats',
    counts: { userChats: { total: 999, unread: 12 }, queuesChats: { total: 100_000, unread: 1500 }, allQueuesChats: { total: 1234, unread: 0 }, chatsHistories: { total: 2_500_000, unread: 0 } },
  },
};
