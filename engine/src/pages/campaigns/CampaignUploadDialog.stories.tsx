import type { Meta, StoryObj } from '@storybook/react';
import { CampaignUploadDialog } from './CampaignUploadDialog';
import { withShell } from '../../stories/StoryShell';
import { adminUser } from '../../stories/fixtures';
import { campaign, campaignApi, storyBackend } from './campaignStoryData';

const meta = {
  title: 'Páginas/Campanhas/Enviar CSV',
  component: CampaignUploadDialog,
  decorators: [withShell],
  args: { open: true, backend: storyBackend, onClose: () => {}, onCreated: () => {} },
  parameters: { shell: { path: '/notifications', user: adminUser, api: campaignApi(campaign()) } },
} satisfies Meta<typeof CampaignUploadDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The form: channel, approved template, CSV file, a column per parameter, window; preview before creating. */
export const Open: Story = {};
