import type { Meta, StoryObj } from '@storybook/react';
import { recordedCalls } from '../../stories/fakeApi';
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

/** GET /api/imports/job-grande: still running on the first ask, done on the second. */
const jobPolls = () => recordedCalls().filter((call) => call.method === 'GET' && call.path === '/api/imports/job-grande').length;

/**
 * A big file (over 5,000 rows) imports in the background: 202 with the job, then a
 * determinate bar 'Importando… 25.000 de 50.000' asked every second, then the same toast.
 */
export const BigFileInBackground: Story = {
  parameters: {
    shell: {
      api: {
        'POST /api/contacts/import': { status: 202, body: { meta: { jobId: 'job-grande', total: 50_000 } } },
        'GET /api/imports/job-grande': () =>
          jobPolls() < 2
            ? { body: { data: { state: 'running', processed: 25_000, total: 50_000, imported: 24_990, failed: 10, errors: [] } } }
            : { body: { data: { state: 'done', processed: 50_000, total: 50_000, imported: 49_990, failed: 10, errors: [], hasErrors: true, message: '49990 registro(s) importado(s); 10 linha(s) com erro: Linha 7: Informe o nome de exibição' } } },
      },
    },
  },
};

/** A background import that stops (a database failure): its message stays in the dialog. */
export const BigFileFailed: Story = {
  parameters: {
    shell: {
      api: {
        'POST /api/contacts/import': { status: 202, body: { meta: { jobId: 'job-grande', total: 50_000 } } },
        'GET /api/imports/job-grande': {
          body: {
            data: {
              state: 'failed', processed: 20_000, total: 50_000, imported: 20_000, failed: 0, errors: [],
              errorMessage: 'A importação parou nas linhas 20002 a 20501 (valor inválido). As linhas 2 a 20001 foram importadas, exceto as linhas com erro; as linhas a partir de 20002 não foram.',
            },
          },
        },
      },
    },
  },
};
