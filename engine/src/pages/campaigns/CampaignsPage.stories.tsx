import type { Meta, StoryObj } from '@storybook/react';
import { CampaignsPage } from './CampaignsPage';
import { withShell } from '../../stories/StoryShell';
import { adminUser } from '../../stories/fixtures';
import { campaign, campaignApi, counters, storyBackend } from './campaignStoryData';

const external = campaign({ id: 'x1', name: 'Aviso do ERP', campaign: false, proccessed: true, counters: counters({ total: 1, done: 1, sent: 1 }) });

const meta = {
  title: 'Páginas/Campanhas',
  component: CampaignsPage,
  decorators: [withShell],
  args: { backend: storyBackend },
  parameters: { shell: { path: '/notifications', user: adminUser, api: campaignApi(campaign(), [campaign(), campaign({ id: 'c0', name: 'Natal', paused: true, counters: counters({ done: 1, sent: 1 }) }), external]) } },
} satisfies Meta<typeof CampaignsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Campaigns newest first with their progress; external notifications behind the toggle. */
export const Default: Story = {};

/** No campaign yet. */
export const Empty: Story = { parameters: { shell: { api: { ...campaignApi(campaign(), []) } } } };
