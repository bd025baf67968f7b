import type { Meta, StoryObj } from '@storybook/react';
import { TemplateDialog } from './TemplateDialog';
import { templatesAnswer } from './whatsappFixtures';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';

export const templateApi = () =>
  recordingApi({
    'GET /api/templates': templatesAnswer(),
    'POST /api/upload': { data: { file: { imageUrl: '/api/files/demo/abc123.png', fileName: 'promo.png', mimeType: 'image/png', size: 10 } } },
  });

const meta: Meta<typeof TemplateDialog> = {
  title: 'Console/WhatsApp/TemplateDialog',
  component: TemplateDialog,
  args: { open: true, channelId: 'wa-meta', onClose: () => undefined, onSend: () => undefined },
  decorators: [(Story, ctx) => <StoryConsole api={ctx.parameters.api ?? templateApi()}><Story /></StoryConsole>],
};
export default meta;
type Story = StoryObj<typeof TemplateDialog>;

/** The list of approved pt_BR/pt_PT templates of one number (excluded names left out). */
export const List: Story = {};
