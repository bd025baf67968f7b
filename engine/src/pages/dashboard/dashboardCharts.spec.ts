import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_FILTERS, messages } from '@atendimento/schemas';
import { buildCharts } from './dashboardCharts';
import { fixtureReport } from './dashboardFixture';

const text = messages.dashboard;
const flags = { askResearch: true, askResearchCsat: true, likertScale5: false, likertScale10: false };

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

  it('leaves the survey charts out where the tenant does not ask for surveys', () => {
    const ids = buildCharts(fixtureReport(), DEFAULT_DASHBOARD_FILTERS, { ...flags, askResearch: false, askResearchCsat: false }).map((c) => c.id);
    expect(ids.filter((id) => /nps|csat/i.test(id))).toEqual([]);
  });
});
