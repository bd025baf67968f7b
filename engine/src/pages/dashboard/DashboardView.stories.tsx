import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import { DEFAULT_DASHBOARD_FILTERS, type DashboardFilters } from '@atendimento/schemas';
import { DashboardView, type DashboardViewProps } from './DashboardView';
import { fixtureReport, withoutFlows } from './dashboardFixture';

const flags = { askResearch: true, askResearchCsat: true, likertScale5: false, likertScale10: false, flowCharts: false, flowResultCharts: false, flowExpectedResult: false, flowResultsPerFlow: false };

/** The view with its filters kept in state, as the page keeps them. */
function Interactive(props: Omit<DashboardViewProps, 'filters' | 'onFilters'> & { initial?: Partial<DashboardFilters> }) {
  const [filters, setFilters] = useState<DashboardFilters>({ ...DEFAULT_DASHBOARD_FILTERS, ...props.initial });
  return <DashboardView {...props} filters={filters} onFilters={setFilters} />;
}

const meta = {
  title: 'Dashboard/DashboardView',
  component: Interactive,
  args: { report: fixtureReport(), loading: false, error: null, flags, today: '2026-01-08', small: true, host: 'acme.test', onExport: () => {} },
} satisfies Meta<typeof Interactive>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Narrow layout (below 2400 px), three columns of bars. */
export const Narrow: Story = {};

/** A phone: the user's three columns and legend at the right wait for a wider screen; one chart per row, legend on top. */
export const Phone: Story = { args: { phone: true } };

/** Wide layout, four columns, lines, legend on top, monthly. */
export const WideLines: Story = { args: { small: false, initial: { columns: 4, chartType: 'line', legend: 'top', monthly: true } } };

/** Four agents chosen: three chips then '(+1 outro(s))'. */
export const ManyAgents: Story = {
  args: {
    report: { ...fixtureReport(), agents: [...fixtureReport().agents, { id: 'davi', displayName: 'Davi Melo' }] },
    initial: { agents: ['ana', 'bia', 'caio', 'davi'] },
  },
};

/** The report as the server sends it with agents chosen: only their per-agent rows (report-service.ts `agentFilter`). */
function onlyAgents(report: ReturnType<typeof fixtureReport>, ids: string[]): ReturnType<typeof fixtureReport> {
  const keep = <T extends { agent?: string; agentId?: string }>(list: T[]) => list.filter((a) => ids.includes(a.agent ?? a.agentId ?? ''));
  return {
    ...report,
    days: report.days.map((d) => ({
      ...d,
      roomDate: { ...d.roomDate, agentsRooms: keep(d.roomDate.agentsRooms) },
      firstAttend: { ...d.firstAttend, agents: keep(d.firstAttend.agents) },
      agentTMA: { tma: keep(d.agentTMA.tma) },
      transfers: { ...d.transfers, agents: keep(d.transfers.agents) },
    })),
  };
}

/** One agent chosen: the cards count Caio's chats, contacts, first answers and TMA, not the period's totals. */
export const OneAgent: Story = { args: { report: onlyAgents(fixtureReport(), ['caio']), initial: { agents: ['caio'] } } };

const flowFlags = { ...flags, flowCharts: true, flowResultCharts: true, flowExpectedResult: true, flowResultsPerFlow: true };

/** Flow charts on: runs per flow (with the expected result), then each flow's results. */
export const Flows: Story = { args: { flags: flowFlags } };

/** Flow charts on in a period without flow runs. */
export const FlowsEmpty: Story = { args: { flags: flowFlags, report: withoutFlows(fixtureReport()) } };
