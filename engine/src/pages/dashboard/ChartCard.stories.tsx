import type { Meta, StoryObj } from '@storybook/react';
import { DEFAULT_DASHBOARD_FILTERS } from '@atendimento/schemas';
import { ChartCard } from './ChartCard';
import { buildCharts } from './dashboardCharts';
import { fixtureReport, withoutFlows } from './dashboardFixture';

const flags = { askResearch: true, askResearchCsat: true, likertScale5: false, likertScale10: false, flowCharts: false, flowResultCharts: false, flowExpectedResult: false, flowResultsPerFlow: false };
const flowFlags = { ...flags, flowCharts: true, flowResultCharts: true, flowExpectedResult: true };
const charts = buildCharts(fixtureReport(), DEFAULT_DASHBOARD_FILTERS, flowFlags);
const chart = (id: string) => charts.find((c) => c.id === id)!;
// With one agent chosen: the department chart has no agent to split by, and says so.
const chosenAgent = buildCharts(fixtureReport(), { ...DEFAULT_DASHBOARD_FILTERS, agents: ['ana'] }, flags);
const noFlows = buildCharts(withoutFlows(fixtureReport()), DEFAULT_DASHBOARD_FILTERS, flowFlags).find((c) => c.id === 'flows')!;

const meta = {
  title: 'Dashboard/ChartCard',
  component: ChartCard,
  args: { chart: chart('agentsRooms'), chartType: 'bar', legend: 'right', height: 320, period: { from: '2026-01-01', to: '2026-01-07' }, host: 'acme.test' },
} satisfies Meta<typeof ChartCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Rooms per agent and day, as bars, legend at the right. */
export const Bars: Story = {};

/** Few chats (one agent, one or two a day): the count axis labels whole numbers only. */
export const FewChats: Story = { args: { chart: { id: 'agentsRooms', title: 'Atendimentos por agente', kind: 'time', categories: ['01/01', '02/01', '03/01'], series: [{ name: 'Ana Souza', values: [1, 2, 1] }] } } };

/** The same as lines, legend on top. */
export const Lines: Story = { args: { chartType: 'line', legend: 'top' } };

/** NPS groups in the seed's colours. */
export const Nps: Story = { args: { chart: chart('nps') } };

/** The hour heatmap: 24 buckets 'Nh-(N+1)h'. */
export const Heatmap: Story = { args: { chart: chart('heatmap') } };

/** Agents chosen: a chart of the period's totals (no agent in its counters) says it shows everyone. */
export const AllAgentsNote: Story = { args: { chart: chosenAgent.find((c) => c.id === 'departmentRooms')! } };

/** The hour heatmap in a narrow card (three columns on a laptop): no value over the bars, every other hour on the axis. */
export const NarrowHeatmap: Story = { args: { chart: chart('heatmap'), legend: 'right' }, decorators: [(Story) => <div style={{ width: 300 }}><Story /></div>] };

/** A chart without labels (no tag used in the period). */
export const NoLabels: Story = { args: { chart: { id: 'tags', title: 'Etiquetas', kind: 'category', categories: [], series: [] } } };

/** Flow runs per flow: started, completed and with the expected result. */
export const Flows: Story = { args: { chart: chart('flows') } };

/** One flow result ('motivo') of all flows together, values by count. */
export const FlowResults: Story = { args: { chart: chart('flowResults:motivo') } };

/** The flows chart of a period without flow runs says so. */
export const FlowsEmpty: Story = { args: { chart: noFlows } };
