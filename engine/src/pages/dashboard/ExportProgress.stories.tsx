import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { adminUser } from '../../stories/fixtures';
import { ExportProgress } from './ExportProgress';

const progress = (status: 'running' | 'sent' | 'failed', rows: number) => ({ body: { data: { id: 'exp-1', status, rows, progress: rows } } });

const meta = {
  title: 'Páginas/Dashboard/Progresso da exportação',
  component: ExportProgress,
  decorators: [withShell],
  args: { jobId: 'exp-1', email: 'admin@exemplo.com.br', onClose: () => undefined },
  parameters: { shell: { user: adminUser, api: { 'GET /api/dashboard/export/exp-1': progress('running', 120) } } },
} satisfies Meta<typeof ExportProgress>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The server is still writing the file: the rows so far and a moving bar. */
export const Running: Story = {};

/** Written and e-mailed. */
export const Sent: Story = { parameters: { shell: { api: { 'GET /api/dashboard/export/exp-1': progress('sent', 250) } } } };

/** The export failed on the server. */
export const Failed: Story = { parameters: { shell: { api: { 'GET /api/dashboard/export/exp-1': progress('failed', 40) } } } };

/** Running, then sent: what the dashboard shows after 'Exportar'. */
export const RunningThenSent: Story = {
  parameters: {
    shell: {
      api: {
        'GET /api/dashboard/export/exp-1': (() => {
          let asked = 0;
          return () => (asked++ === 0 ? progress('running', 120) : progress('sent', 250));
        })(),
      },
    },
  },
};
