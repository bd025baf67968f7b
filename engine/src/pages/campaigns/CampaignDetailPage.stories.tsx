import type { Meta, StoryObj } from '@storybook/react';
import { CampaignDetailPage } from './CampaignDetailPage';
import { withShell } from '../../stories/StoryShell';
import { adminUser } from '../../stories/fixtures';
import { campaign, campaignApi, storyBackend } from './campaignStoryData';

const meta = {
  title: 'Páginas/Campanha',
  component: CampaignDetailPage,
  decorators: [withShell],
  args: { backend: storyBackend },
  parameters: { shell: { path: '/notifications/c1', pattern: '/notifications/:id', user: adminUser, api: campaignApi(campaign()) } },
} satisfies Meta<typeof CampaignDetailPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Sending: cards, progress, the message table with the seed's status texts, 'Pausar'. */
export const Sending: Story = {};

/** Paused: 'Retomar'. */
export const Paused: Story = { parameters: { shell: { api: campaignApi(campaign({ paused: true })) } } };

/** Proccessed: neither pause nor unpause is offered. */
export const Proccessed: Story = { parameters: { shell: { api: campaignApi(campaign({ proccessed: true, counters: { total: 5, done: 5, sent: 5, delivered: 5, read: 4, interacted: 2, clicked: 1, error: 0 } })) } } };
