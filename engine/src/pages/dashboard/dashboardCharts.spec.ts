import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_FILTERS, messages } from '@atendimento/schemas';
import { buildCharts } from './dashboardCharts';
import { fixtureReport, withoutFlows } from './dashboardFixture';

const text = messages.dashboard;
const flags = { askResearch: true, askResearchCsat: true, likertScale5: false, likertScale10: false, flowCharts: false, flowResultCharts: false, flowExpectedResult: false, flowResultsPerFlow: false };

describe('buildCharts', () => {
  it('follows each survey score with the surveys asked per agent, per day or as a daily average', () => {
    const report = fixtureReport('2026-01-01', 7);
    const charts = buildCharts(report, DEFAULT_DASHBOARD_FILTERS, flags);
    const ids = charts.map((c) => c.id);
    expect(ids.indexOf('npsRequested')).toBe(ids.indexOf('nps') + 1);
    expect(ids.indexOf('csatRequested')).toBe(ids.indexOf('csat') + 1);
    const nps = charts.find((c) => c.id === 'npsRequested')!;
    expect(nps.title).toBe(text.chartNpsRequested);
    expect(nps.series).toEqual([{ name: 'Ana Souza', values: [6, 6, 6, 6, 6, 6, 6] }]);
    const monthly = buildCharts(report, { ...DEFAULT_DASHBOARD_FILTERS, monthly: true, average: true }, flags).find((c) => c.id === 'csatRequested')!;
    expect(monthly.title).toBe(text.chartCsatRequested);
    expect(monthly.series).toEqual([{ name: 'Bia Lima', values: [4] }]);
  });

  it("with agents chosen, counts their chats per day and their transfers, and marks the charts that cannot split by agent", () => {
    const report = fixtureReport('2026-01-01', 7);
    // The server sends only the chosen agents' rows (report-service's agentFilter).
    for (const d of report.days) d.roomDate.agentsRooms = d.roomDate.agentsRooms.filter((a) => a.agent === 'ana');
    const chosen = { ...DEFAULT_DASHBOARD_FILTERS, agents: ['ana'] };
    const charts = buildCharts(report, chosen, { ...flags, flowCharts: true });
    const byId = (id: string) => charts.find((c) => c.id === id)!;
    const ana = report.days.map((d) => d.roomDate.agentsRooms[0]!.count);
    expect(byId('rooms').series.find((s) => s.name === text.kpiRooms)!.values).toEqual(ana);
    expect(ana).not.toEqual(report.days.map((d) => d.roomDate.countRooms));
    expect(byId('transfers').series[0]!.values).toEqual(report.days.map((d) => d.transfers.agents.reduce((n, a) => n + a.count, 0)));
    for (const id of ['departmentRooms', 'channels', 'firstAttendDepartments', 'departmentTma', 'tags', 'heatmap', 'flows']) expect(byId(id).note, id).toBe(text.notByAgent);
    for (const id of ['rooms', 'agentsRooms', 'agentTma', 'transfers']) expect(byId(id).note, id).toBeUndefined();
    // Without agents (or with departments, which win) every chart is the period's totals, unmarked.
    for (const filters of [DEFAULT_DASHBOARD_FILTERS, { ...chosen, departments: ['vendas'] }]) {
      const all = buildCharts(fixtureReport('2026-01-01', 7), filters, flags);
      expect(all.filter((c) => c.note)).toEqual([]);
      expect(all.find((c) => c.id === 'rooms')!.series.find((s) => s.name === text.kpiRooms)!.values).toEqual(report.days.map((d) => d.roomDate.countRooms));
    }
  });

  it('leaves the survey charts out where the tenant does not ask for surveys', () => {
    const ids = buildCharts(fixtureReport(), DEFAULT_DASHBOARD_FILTERS, { ...flags, askResearch: false, askResearchCsat: false }).map((c) => c.id);
    expect(ids.filter((id) => /nps|csat/i.test(id))).toEqual([]);
  });

  it("adds 'Fluxos' after the transfers: started and completed per flow summed over the days, most started first", () => {
    const charts = buildCharts(fixtureReport('2026-01-01', 7), DEFAULT_DASHBOARD_FILTERS, { ...flags, flowCharts: true });
    const ids = charts.map((c) => c.id);
    expect(ids.indexOf('flows')).toBe(ids.indexOf('transfers') + 1);
    const flows = charts.find((c) => c.id === 'flows')!;
    expect(flows).toMatchObject({ title: text.chartFlows, kind: 'category', categories: ['Triagem inicial', 'Segunda via de boleto'] });
    // The expected series needs the tenant's flowExpectedResult.
    expect(flows.series).toEqual([
      { name: text.flowStarted, values: [62, 24] },
      { name: text.flowCompleted, values: [45, 21] },
    ]);
    expect(ids.some((id) => id.startsWith('flowResults'))).toBe(false);
    expect(buildCharts(fixtureReport(), DEFAULT_DASHBOARD_FILTERS, flags).map((c) => c.id)).not.toContain('flows');
  });

  it('adds the runs with the expected result (none counted as 0) only with flowExpectedResult and a flow that defines one', () => {
    const on = { ...flags, flowCharts: true, flowExpectedResult: true };
    const flows = buildCharts(fixtureReport('2026-01-01', 7), DEFAULT_DASHBOARD_FILTERS, on).find((c) => c.id === 'flows')!;
    expect(flows.series.map((s) => s.name)).toEqual([text.flowStarted, text.flowCompleted, text.flowExpected]);
    expect(flows.series[2]!.values).toEqual([38, 0]);
    const report = fixtureReport('2026-01-01', 7);
    for (const d of report.days) for (const f of d.flows.flows) f.expected = null;
    expect(buildCharts(report, DEFAULT_DASHBOARD_FILTERS, on).find((c) => c.id === 'flows')!.series.map((s) => s.name)).toEqual([text.flowStarted, text.flowCompleted]);
  });

  it('divides the flow runs by the days of the period with the average toggle', () => {
    const flows = buildCharts(fixtureReport('2026-01-01', 7), { ...DEFAULT_DASHBOARD_FILTERS, average: true }, { ...flags, flowCharts: true, flowExpectedResult: true }).find((c) => c.id === 'flows')!;
    expect(flows.series.map((s) => s.values)).toEqual([[8.86, 3.43], [6.43, 3], [5.43, 0]]);
  });

  it("keeps the 'Fluxos' chart in a period without flow runs, with its own empty text", () => {
    const flows = buildCharts(withoutFlows(fixtureReport()), DEFAULT_DASHBOARD_FILTERS, { ...flags, flowCharts: true, flowResultCharts: true }).filter((c) => c.id.startsWith('flow'));
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ id: 'flows', categories: [], emptyText: text.flowsEmpty });
  });

  it('a period with chats but no transfer, tag or online time names what is missing, not the chats', () => {
    const report = fixtureReport('2026-01-01', 3);
    for (const d of report.days) {
      d.transfers.count = 0;
      d.tagsReport.tags = [];
      d.userStatus.agents = [];
    }
    const charts = buildCharts(report, DEFAULT_DASHBOARD_FILTERS, flags);
    expect(charts.find((c) => c.id === 'userStatus')).toMatchObject({ emptyText: text.userStatusEmpty });
    expect(charts.find((c) => c.id === 'transfers')).toMatchObject({ emptyText: text.transfersEmpty });
    expect(charts.find((c) => c.id === 'transfers')!.series.every((s) => s.values.every((v) => v === 0))).toBe(true);
    expect(charts.find((c) => c.id === 'tags')).toMatchObject({ categories: [], emptyText: text.tagsEmpty });
    expect(charts.find((c) => c.id === 'rooms')!.emptyText).toBeUndefined();
  });

  it('merges the results of all flows per result name, values by count', () => {
    const charts = buildCharts(fixtureReport('2026-01-01', 7), DEFAULT_DASHBOARD_FILTERS, { ...flags, flowCharts: true, flowResultCharts: true });
    const results = charts.filter((c) => c.id.startsWith('flowResults'));
    expect(results.map((c) => [c.id, c.title])).toEqual([
      ['flowResults:motivo', 'Resultados: motivo'],
      ['flowResults:resolvido', 'Resultados: resolvido'],
    ]);
    expect(charts.map((c) => c.id).indexOf('flowResults:motivo')).toBe(charts.map((c) => c.id).indexOf('flows') + 1);
    expect(results[0]).toMatchObject({ kind: 'category', categories: ['Financeiro', 'Suporte', 'Comercial'], series: [{ name: 'motivo', values: [24, 13, 8] }] });
    expect(results[1]).toMatchObject({ categories: ['sim', 'não'], series: [{ name: 'resolvido', values: [56, 10] }] });
  });

  it('draws one result chart per flow and result name with flowResultsPerFlow', () => {
    const results = buildCharts(fixtureReport('2026-01-01', 7), DEFAULT_DASHBOARD_FILTERS, { ...flags, flowResultCharts: true, flowResultsPerFlow: true }).filter((c) => c.id.startsWith('flowResults'));
    expect(results.map((c) => [c.id, c.title])).toEqual([
      ['flowResults:boleto:resolvido', 'Segunda via de boleto — resolvido'],
      ['flowResults:triagem:motivo', 'Triagem inicial — motivo'],
      ['flowResults:triagem:resolvido', 'Triagem inicial — resolvido'],
    ]);
    expect(results.map((c) => c.series[0]!.values)).toEqual([[18, 3], [24, 13, 8], [38, 7]]);
    expect(new Set(results.map((c) => c.id)).size).toBe(results.length);
  });
});
