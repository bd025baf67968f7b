import type { Meta, StoryObj } from '@storybook/react';
import { adminUser } from '../../stories/fixtures';
import { withShell } from '../../stories/StoryShell';
import { UploadDialog } from './UploadDialog';

const meta = {
  title: 'Cadastros/Enviar arquivo',
  component: UploadDialog,
  decorators: [withShell],
  args: { open: true, onClose: () => undefined },
  parameters: {
    shell: {
      user: adminUser,
      api: { 'POST /api/upload': { status: 200, body: { data: { file: { documentUrl: '/api/files/acme/tabela-precos.pdf' } } } } },
    },
  },
} satisfies Meta<typeof UploadDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A file is chosen: it goes to /api/upload and its address shows as a link to copy. */
export const Default: Story = {};

/** The server refuses the file: its message shows as an error. */
export const Refused: Story = {
  parameters: {
    shell: { api: { 'POST /api/upload': { status: 413, body: { error: 'file_too_large', errorMessage: 'Arquivo maior que 100 MB.' } } } },
  },
};
