import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { WidgetHarness } from './WidgetHarness';

const meta = {
  title: 'Cadastros/Widgets/Botão de ação',
  component: WidgetHarness,
  decorators: [withShell],
  parameters: {
    shell: {
      api: {
        'POST /api/dm_qrcodes/qr-1/generate': { body: { data: { message: 'QR Code gerado!' } } },
        'POST /api/dm_qrcodes/qr-2/generate': { status: 409, body: { error: 'conflict', errorMessage: 'Canal desconectado.' } },
      },
    },
  },
} satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

const args = {
  schema: { type: 'object' as const, properties: { generate: { type: 'null' as const, title: 'Gerar QR Code' } } },
  uiSchema: { generate: { 'ui:field': 'actionButton', 'ui:options': { method: 'POST', path: '/api/dm_qrcodes/{id}/generate' } } },
};

/** On a saved record: calls the API with its id and toasts the answer's message. */
export const OnRecord: Story = { args: { ...args, formContext: { record: { id: 'qr-1' } } } };

/** The server refuses: its message is toasted. */
export const Refused: Story = { args: { ...args, formContext: { record: { id: 'qr-2' } } } };

/** A new record has no id yet: the button is disabled. */
export const NewRecord: Story = { args };
