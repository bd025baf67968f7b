import type { Meta, StoryObj } from '@storybook/react';
import { DashboardPage } from './DashboardPage';
import { withShell } from '../../stories/StoryShell';
import { adminUser, storyConfig, supervisorUser } from '../../stories/fixtures';
import { emptyReport, fixtureReport } from './dashboardFixture';

const surveys = { publicRegister: true, askResearch: true, askResearchCsat: true };

// Users are set per story: parameters merge deeply, so an admin's claims in the meta would stick.
const asAdmin = { user: adminUser };

const meta = {
  title: 'Páginas/Dashboard',
  component: DashboardPage,
  decorators: [withShell],
  parameters: {
    shell: {
      path: '/dashboard',
      config: storyConfig({ claims: surveys }),
      api: {
        'GET /api/dashboard/reports': { body: { data: fixtureReport() } },
        'POST /api/dashboard/export': { status: 202, body: { data: { id: 'exp-1' } } },
        'GET /api/dashboard/export/exp-1': { body: { data: { id: 'exp-1', status: 'sent', rows: 37, progress: 37 } } },
      },
    },
  },
} satisfies Meta<typeof DashboardPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An admin's week: KPI row (NPS and CSAT in the seed's colours) and every chart, as bars. */
export const Default: Story = { parameters: { shell: asAdmin } };

/** A supervisor of Vendas: only that department and its agents. */
export const Supervisor: Story = {
  parameters: { shell: { user: supervisorUser, api: { 'GET /api/dashboard/reports': { body: { data: fixtureReport('2026-01-01', 7, 'supervisor') } } } } },
};

/** With exportAdminOnly a non-admin has no export button. */
export const ExportAdminOnly: Story = {
  parameters: {
    shell: { user: supervisorUser, config: storyConfig({ claims: { ...surveys, exportAdminOnly: true } }), api: { 'GET /api/dashboard/reports': { body: { data: fixtureReport('2026-01-01', 7, 'supervisor') } } } },
  },
};

/** NPS on the 1–5 scale (likertScale5) and CSAT on 0–10 (likertScale10). */
export const LikertScales: Story = {
  parameters: { shell: { ...asAdmin, config: storyConfig({ claims: { ...surveys, likertScale5: true, likertScale10: true } }) } },
};

/** Flow charts (flowCharts, flowResultCharts, flowExpectedResult): runs per flow and the results of all flows together. */
export const FlowCharts: Story = {
  parameters: { shell: { ...asAdmin, config: storyConfig({ claims: { ...surveys, flowCharts: true, flowResultCharts: true, flowExpectedResult: true } }) } },
};

/** No chat in the period. */
export const Empty: Story = { parameters: { shell: { ...asAdmin, api: { 'GET /api/dashboard/reports': { body: { data: emptyReport() } } } } } };

/** The reports are on their way. */
export const Loading: Story = { parameters: { shell: { ...asAdmin, api: { 'GET /api/dashboard/reports': () => new Promise(() => {}) } } } };

/** The server could not answer. */
export const Failed: Story = {
  parameters: { shell: { ...asAdmin, api: { 'GET /api/dashboard/reports': { status: 500, body: { error: 'internal', errorMessage: 'Erro interno, favor contactar o administrador.' } } } } },
};
