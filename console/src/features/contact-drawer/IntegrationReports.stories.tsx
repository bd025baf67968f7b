import type { Meta, StoryObj } from '@storybook/react';
import { StoryConsole, recordingApi, type RecordedCall } from '../../fixtures/StoryConsole';
import { IntegrationReports, REPORT_PAGE, type ReportIntegration } from './IntegrationReports';

export const vendas: ReportIntegration = {
  collection: 'vendas',
  name: 'Vendas do mês',
  listTitle: 'Vendas',
  report: true,
  view: {
    schema: { properties: { pedido: { title: 'Pedido' }, valor: { title: 'Valor' } } },
    list: { titleField: 'pedido', columns: [{ field: 'pedido' }, { field: 'valor' }] },
  },
};
const naoRelatorio: ReportIntegration = { ...vendas, collection: 'outros', name: 'Outros', listTitle: null, report: false };

/** 15 records; `filter={"q":…}` keeps those whose pedido contains it; `range=[a,b]` slices. */
export const vendasRows = Array.from({ length: 15 }, (_, i) => ({ id: `V-${i + 1}`, pedido: `V-${i + 1}`, valor: (i + 1) * 10 }));
function listAnswer(call: RecordedCall) {
  const params = new URLSearchParams(call.path.split('?')[1] ?? '');
  const [from, to] = JSON.parse(params.get('range') ?? `[0,${REPORT_PAGE - 1}]`) as [number, number];
  const q = params.get('filter') ? (JSON.parse(params.get('filter')!) as { q: string }).q : '';
  return vendasRows.filter((r) => r.pedido.includes(q)).slice(from, to + 1);
}

/** GET /api/integration-definitions with a report integration and another, and its records. */
export const reportsApi = (list: unknown = listAnswer) =>
  recordingApi({ 'GET /api/integration-definitions': { data: [vendas, naoRelatorio] }, 'GET /api/integration/vendas': list });

const meta: Meta<typeof IntegrationReports> = {
  title: 'Console/ContactDrawer/Relatórios',
  component: IntegrationReports,
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? reportsApi()}>
      <div style={{ width: 226 }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof IntegrationReports>;

/** One "Rel. {title}" button per report integration; it opens the table dialog. */
export const Default: Story = {};

/** The records call is refused: the dialog says the server's message. */
export const ListFailed: Story = { parameters: { api: reportsApi(() => new Error('Você não tem permissão para acessar este recurso.')) } };
