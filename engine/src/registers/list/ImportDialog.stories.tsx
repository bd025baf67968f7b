import type { Meta, StoryObj } from '@storybook/react';
import { adminUser } from '../../stories/fixtures';
import { withShell } from '../../stories/StoryShell';
import { ImportDialog } from './ImportDialog';

let imported = 0;
/** How many times the stories' dialog reported a finished import (specs assert on it). */
export function importsDone(): number {
  return imported;
}
export function resetImportsDone(): void {
  imported = 0;
}

const meta = {
  title: 'Cadastros/Importar CSV',
  component: ImportDialog,
  decorators: [withShell],
  args: {
    collection: 'contacts',
    open: true,
    onClose: () => undefined,
    onImported: () => {
      imported += 1;
    },
  },
  parameters: {
    shell: {
      user: adminUser,
      api: {
        'POST /api/contacts/import': { status: 200, body: { meta: { hasErrors: false }, data: { message: '2 registros importados.' } } },
        'GET /api/contacts/csvTemplate': { body: 'displayName,phone,email' },
      },
    },
  },
} satisfies Meta<typeof ImportDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Contacts: the hint, the CSV template, a .csv to choose; the server's message as a success toast. */
export const Contacts: Story = {};

/** Some rows failed: the server's message shows as a warning. */
export const SomeRowsFailed: Story = {
  parameters: {
    shell: { api: { 'POST /api/contacts/import': { status: 200, body: { meta: { hasErrors: true }, data: { message: '1 registro importado, 1 com erro (linha 3: telefone inválido).' } } } } },
  },
};

/** The server refuses the file: its message shows in the dialog. */
export const Refused: Story = {
  parameters: { shell: { api: { 'POST /api/contacts/import': { status: 400, body: { error: 'import_invalid', errorMessage: 'O arquivo não tem a coluna displayName.' } } } } },
};
