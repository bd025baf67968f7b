import {
  csatClass, csatScore, dayLabel, format, KPI_COLORS, messages, monthOf, npsClass, npsScore, surveyBreakdown,
  type DashboardFilters, type DashboardReport, type ReportDay, type SurveyBreakdown,
} from '@atendimento/schemas';

const text = messages.dashboard;

/** One chart of the grid: x categories and one or more series (values aligned with categories). */
export interface ChartModel {
  id: string;
  title: string;
  /** 'time': x is the day (or month); 'category': x is a name (tags, hours). */
  kind: 'time' | 'category';
  categories: string[];
  series: { name: string; color?: string; values: number[] }[];
  /** What the card says when there is nothing to draw (the generic 'no data' text otherwise). */
  emptyText?: string;
  /** A line under the title: with agents chosen, a chart the counters cannot split by agent says it shows everyone's. */
  note?: string;
}

export interface Kpi {
  id: string;
  label: string;
  value: string;
  /** NPS/CSAT: the three groups with the seed's colours. */
  breakdown?: { label: string; color: string; count: number }[];
}

/** Dashboard flags of the tenant (seed 002 §3, §6): NPS/CSAT charts and their scales. */
export interface DashboardFlags {
  askResearch: boolean;
  askResearchCsat: boolean;
  likertScale5: boolean;
  likertScale10: boolean;
  /** 'Fluxos': runs started and completed per flow. */
  flowCharts: boolean;
  /** One chart per flow result name (all flows together, or per flow with flowResultsPerFlow). */
  flowResultCharts: boolean;
  /** The flows chart adds the runs that reached the flow's expected result. */
  flowExpectedResult: boolean;
  flowResultsPerFlow: boolean;
}

type Acc = { n: number; total: number };
type Pick = (day: ReportDay) => [series: string, n: number, total: number][];

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Groups of the x axis: each day, or each year-month in the monthly view. */
function groupsOf(days: ReportDay[], monthly: boolean): { key: string; label: string; days: number }[] {
  const out: { key: string; label: string; days: number }[] = [];
  for (const d of days) {
    const key = monthly ? monthOf(d.date) : d.date;
    const last = out[out.length - 1];
    if (last?.key === key) last.days++;
    else out.push({ key, label: dayLabel(key), days: 1 });
  }
  return out;
}

/** Sums what `pick` reads per series and group, then turns each (n, total) into a value. */
function timeChart(id: string, title: string, days: ReportDay[], filters: DashboardFilters, pick: Pick, value: (a: Acc, groupDays: number) => number, nameOf: (key: string) => string = (k) => k): ChartModel {
  const groups = groupsOf(days, filters.monthly);
  const index = new Map(groups.map((g, i) => [g.key, i]));
  const series = new Map<string, Acc[]>();
  for (const d of days) {
    const gi = index.get(filters.monthly ? monthOf(d.date) : d.date)!;
    for (const [name, n, total] of pick(d)) {
      let accs = series.get(name);
      if (!accs) series.set(name, (accs = groups.map(() => ({ n: 0, total: 0 }))));
      accs[gi]!.n += n;
      accs[gi]!.total += total;
    }
  }
  return {
    id,
    title,
    kind: 'time',
    categories: groups.map((g) => g.label),
    series: [...series].map(([name, accs]) => ({ name: nameOf(name), values: accs.map((a, i) => round2(value(a, groups[i]!.days))) })).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR')),
  };
}

/** Counts (optionally per day with the average toggle). */
const countValue = (average: boolean) => (a: Acc, groupDays: number) => (average ? a.n / groupDays : a.n);
/** Average of a time in minutes. */
const minutes = (a: Acc) => (a.n ? a.total / a.n / 60_000 : 0);

function breakdownOf(days: ReportDay[], kind: 'nps' | 'csat', flags: DashboardFlags): SurveyBreakdown {
  const values: Record<string, number> = {};
  for (const d of days) {
    const list = kind === 'nps' ? d.npsAnswered.npsAgents : d.csatAnswered.csatAgents;
    for (const a of list) for (const [v, c] of Object.entries(a.values)) values[v] = (values[v] ?? 0) + c;
  }
  return surveyBreakdown(values, kind === 'nps' ? (v) => npsClass(v, flags.likertScale5) : (v) => csatClass(v, flags.likertScale10));
}

function surveyChart(id: string, title: string, days: ReportDay[], filters: DashboardFilters, kind: 'nps' | 'csat', flags: DashboardFlags): ChartModel {
  const classOf = kind === 'nps' ? (v: number) => npsClass(v, flags.likertScale5) : (v: number) => csatClass(v, flags.likertScale10);
  const chart = timeChart(id, title, days, filters, (d) => {
    const out: [string, number, number][] = [];
    for (const a of kind === 'nps' ? d.npsAnswered.npsAgents : d.csatAnswered.csatAgents) {
      for (const [v, c] of Object.entries(a.values)) {
        const cls = classOf(Number(v));
        if (cls) out.push([cls, c, 0]);
      }
    }
    return out;
  }, countValue(filters.average));
  const order = [
    ['detractor', text.detractors, KPI_COLORS.detractors],
    ['passive', text.passives, KPI_COLORS.passives],
    ['promoter', text.promoters, KPI_COLORS.promoters],
  ] as const;
  const byName = new Map(chart.series.map((s) => [s.name, s]));
  chart.series = order.map(([key, label, color]) => ({ name: label, color, values: byName.get(key)?.values ?? chart.categories.map(() => 0) }));
  return chart;
}

/** The grid of charts of 002 §2 for a report, the filters and the tenant's flags. */
export function buildCharts(report: DashboardReport, filters: DashboardFilters, flags: DashboardFlags): ChartModel[] {
  const { days } = report;
  const agentName = new Map(report.agents.map((a) => [a.id, a.displayName]));
  const deptName = new Map(report.departments.map((d) => [d.id, d.displayName]));
  const channelName = new Map(report.channels.map((c) => [c.id, c.label]));
  const agent = (id: string) => agentName.get(id) ?? id;
  const dept = (id: string) => (id ? deptName.get(id) ?? id : 'Sem departamento');
  const count = countValue(filters.average);
  // With agents chosen the server sends only their per-agent rows (as the KPI cards read them);
  // the department, channel, tag and hour counters have no agent, so those charts say they show everyone's.
  const byAgents = filters.agents.length > 0 && filters.departments.length === 0;
  const everyone = (chart: ChartModel): ChartModel => (byAgents ? { ...chart, note: text.notByAgent } : chart);
  const roomsOf = (d: ReportDay): [string, number, number][] => byAgents
    ? [[text.kpiRooms, d.roomDate.agentsRooms.reduce((s, a) => s + a.count, 0), 0], [text.kpiContacts, d.roomDate.agentsRooms.reduce((s, a) => s + a.countContacts, 0), 0]]
    : [[text.kpiRooms, d.roomDate.countRooms, 0], [text.kpiContacts, d.roomDate.countContacts, 0]];
  const charts: ChartModel[] = [
    timeChart('rooms', text.chartRooms, days, filters, roomsOf, count),
    timeChart('agentsRooms', text.chartAgentsRooms, days, filters, (d) => d.roomDate.agentsRooms.map((a) => [a.agent, a.count, 0]), count, agent),
    everyone(timeChart('departmentRooms', text.chartDepartmentRooms, days, filters, (d) => d.roomDate.departmentRooms.map((r) => [r.departmentId, r.count, 0]), count, dept)),
    everyone(timeChart('channels', text.chartChannels, days, filters, (d) => d.roomDate.channelRooms.map((c) => [c.channelId, c.countRooms, 0]), count, (id) => channelName.get(id) ?? id)),
    timeChart('firstAttendAgents', text.chartFirstAttendAgents, days, filters, (d) => d.firstAttend.agents.map((a) => [a.agent, a.count, a.totalMs]), minutes, agent),
    everyone(timeChart('firstAttendDepartments', text.chartFirstAttendDepartments, days, filters, (d) => d.firstAttend.departaments.map((a) => [a.departament, a.count, a.totalMs]), minutes, dept)),
    timeChart('agentTma', text.chartAgentTma, days, filters, (d) => d.agentTMA.tma.map((a) => [a.agentId, a.count, a.totalMs]), minutes, agent),
    everyone(timeChart('departmentTma', text.chartDepartmentTma, days, filters, (d) => d.departmentTMA.tma.map((a) => [a.departmentId, a.count, a.totalMs]), minutes, dept)),
    { ...timeChart('userStatus', text.chartUserStatus, days, filters, (d) => d.userStatus.agents.map((a) => [a.agent, 1, a.totalMs]), (a, g) => (filters.average ? a.total / g : a.total) / 3_600_000, agent), emptyText: text.userStatusEmpty },
  ];
  // Each score chart is followed by the surveys sent per agent: a score means little without how many were asked.
  if (flags.askResearch) {
    charts.push(surveyChart('nps', text.chartNps, days, filters, 'nps', flags));
    charts.push(timeChart('npsRequested', text.chartNpsRequested, days, filters, (d) => d.npsRequested.npsAgents.map((a) => [a.agent, a.totalCount, 0]), count, agent));
  }
  if (flags.askResearchCsat) {
    charts.push(surveyChart('csat', text.chartCsat, days, filters, 'csat', flags));
    charts.push(timeChart('csatRequested', text.chartCsatRequested, days, filters, (d) => d.csatRequested.csatAgents.map((a) => [a.agent, a.totalCount, 0]), count, agent));
  }
  const tags = new Map<string, { name: string; color: string; count: number }>();
  for (const d of days) {
    for (const t of d.tagsReport.tags) {
      const cur = tags.get(t.id) ?? { name: t.name, color: t.color, count: 0 };
      cur.count += t.count;
      tags.set(t.id, cur);
    }
  }
  const tagList = [...tags.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'pt-BR'));
  charts.push(everyone({ id: 'tags', title: text.chartTags, kind: 'category', categories: tagList.map((t) => t.name), series: [{ name: text.chartTags, values: tagList.map((t) => t.count) }], emptyText: text.tagsEmpty }));
  const hours = Array.from({ length: 24 }, (_, h) => days.reduce((s, d) => s + (d.roomsHoursHeatmap.hoursHitmap[h]?.count ?? 0), 0));
  charts.push(everyone({
    id: 'heatmap',
    title: text.chartHeatmap,
    kind: 'category',
    categories: hours.map((_, h) => days[0]?.roomsHoursHeatmap.hoursHitmap[h]?.label ?? `${h}h-${h + 1}h`),
    series: [{ name: text.kpiRooms, values: hours.map((v) => (filters.average && days.length ? round2(v / days.length) : v)) }],
  }));
  // A period with chats but no transfer (or no tag) says so, not 'no chats' (the default text).
  const transfersOf = (d: ReportDay): [string, number, number][] => [[text.kpiTransfers, byAgents ? d.transfers.agents.reduce((s, a) => s + a.count, 0) : d.transfers.count, 0]];
  charts.push({ ...timeChart('transfers', text.chartTransfers, days, filters, transfersOf, count), emptyText: text.transfersEmpty });
  if (flags.flowCharts) charts.push(everyone(flowsChart(days, filters, flags)));
  if (flags.flowResultCharts) charts.push(...flowResultCharts(days, flags).map(everyone));
  return charts;
}

const byName = (a: string, b: string) => a.localeCompare(b, 'pt-BR');

/**
 * 'Fluxos': per flow, the runs started and completed in the period (daily averages with the
 * average toggle), plus the runs with the expected result when the tenant asks for it and
 * some flow defines one. Flows by runs started, most first.
 */
function flowsChart(days: ReportDay[], filters: DashboardFilters, flags: DashboardFlags): ChartModel {
  const flows = new Map<string, { name: string; count: number; completed: number; expected: number; hasExpected: boolean }>();
  for (const d of days) {
    for (const f of d.flows?.flows ?? []) {
      const cur = flows.get(f.id) ?? { name: f.name, count: 0, completed: 0, expected: 0, hasExpected: false };
      // Days come in order: the latest name wins if a flow was renamed.
      cur.name = f.name;
      cur.count += f.count;
      cur.completed += f.completed;
      cur.expected += f.expected ?? 0;
      if (f.expected !== null && f.expected !== undefined) cur.hasExpected = true;
      flows.set(f.id, cur);
    }
  }
  const list = [...flows.values()].sort((a, b) => b.count - a.count || byName(a.name, b.name));
  const value = (v: number) => (filters.average && days.length ? round2(v / days.length) : v);
  const series: ChartModel['series'] = [
    { name: text.flowStarted, values: list.map((f) => value(f.count)) },
    { name: text.flowCompleted, values: list.map((f) => value(f.completed)) },
  ];
  if (flags.flowExpectedResult && list.some((f) => f.hasExpected)) series.push({ name: text.flowExpected, values: list.map((f) => value(f.expected)) });
  return { id: 'flows', title: text.chartFlows, kind: 'category', categories: list.map((f) => f.name), series, emptyText: text.flowsEmpty };
}

/**
 * Flow results summed over the period: one chart per result name with all flows together,
 * or one per flow and result name (flowResultsPerFlow). Values by count, most first.
 */
function flowResultCharts(days: ReportDay[], flags: DashboardFlags): ChartModel[] {
  const charts = new Map<string, { flowName: string; title: string; counts: Map<string, number> }>();
  for (const d of days) {
    for (const r of d.flowResults?.results ?? []) {
      const id = flags.flowResultsPerFlow ? `flowResults:${r.flowId}:${r.title}` : `flowResults:${r.title}`;
      const cur = charts.get(id) ?? { flowName: r.flowName, title: r.title, counts: new Map<string, number>() };
      cur.flowName = r.flowName;
      r.labels.forEach((label, i) => cur.counts.set(label, (cur.counts.get(label) ?? 0) + (r.results[i] ?? 0)));
      charts.set(id, cur);
    }
  }
  return [...charts]
    .sort(([, a], [, b]) => (flags.flowResultsPerFlow ? byName(a.flowName, b.flowName) : 0) || byName(a.title, b.title))
    .map(([id, c]) => {
      const values = [...c.counts].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
      return {
        id,
        title: flags.flowResultsPerFlow ? format(text.chartFlowResultsPerFlow, { flow: c.flowName, result: c.title }) : format(text.chartFlowResults, { result: c.title }),
        kind: 'category' as const,
        categories: values.map(([label]) => label),
        series: [{ name: c.title, values: values.map(([, n]) => n) }],
      };
    });
}

const fmtMinutes = (ms: number) => `${(ms / 60_000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} min`;

/** The KPI row: totals of the period (contacts: sum of each day's distinct contacts). */
/**
 * The KPI row. With agents chosen (`byAgents`: the server then sends only their per-agent rows)
 * the cards count those agents' chats, contacts, first answers, TMA and transfers; otherwise the
 * period's totals (every department in the viewer's scope). Before, the cards stayed on the
 * totals while the charts below followed the chosen agents.
 */
export function buildKpis(report: DashboardReport, flags: DashboardFlags, byAgents = false): Kpi[] {
  const { days } = report;
  const sum = (f: (d: ReportDay) => number) => days.reduce((s, d) => s + f(d), 0);
  const total = <T>(list: (d: ReportDay) => T[], f: (item: T) => number) => sum((d) => list(d).reduce((s, item) => s + f(item), 0));
  type Timed = { count: number; totalMs: number };
  const firstOf = (d: ReportDay): Timed[] => (byAgents ? d.firstAttend.agents : d.firstAttend.departaments);
  const tmaOf = (d: ReportDay): Timed[] => (byAgents ? d.agentTMA.tma : d.departmentTMA.tma);
  const first = { n: total(firstOf, (a) => a.count), total: total(firstOf, (a) => a.totalMs) };
  const tma = { n: total(tmaOf, (a) => a.count), total: total(tmaOf, (a) => a.totalMs) };
  const kpis: Kpi[] = [
    { id: 'rooms', label: text.kpiRooms, value: String(byAgents ? total((d) => d.roomDate.agentsRooms, (a) => a.count) : sum((d) => d.roomDate.countRooms)) },
    { id: 'contacts', label: text.kpiContacts, value: String(byAgents ? total((d) => d.roomDate.agentsRooms, (a) => a.countContacts) : sum((d) => d.roomDate.countContacts)) },
    { id: 'firstAttend', label: text.kpiFirstAttend, value: first.n ? fmtMinutes(first.total / first.n) : '—' },
    { id: 'tma', label: text.kpiTma, value: tma.n ? fmtMinutes(tma.total / tma.n) : '—' },
    { id: 'transfers', label: text.kpiTransfers, value: String(byAgents ? total((d) => d.transfers.agents, (a) => a.count) : sum((d) => d.transfers.count)) },
  ];
  const survey = (id: 'nps' | 'csat', label: string) => {
    const b = breakdownOf(days, id, flags);
    const score = id === 'nps' ? npsScore(b) : csatScore(b);
    kpis.push({
      id,
      label,
      value: b.total ? (id === 'nps' ? String(score) : `${String(score).replace('.', ',')}%`) : '—',
      breakdown: [
        { label: text.detractors, color: KPI_COLORS.detractors, count: b.detractors },
        { label: text.passives, color: KPI_COLORS.passives, count: b.passives },
        { label: text.promoters, color: KPI_COLORS.promoters, count: b.promoters },
      ],
    });
  };
  if (flags.askResearch) survey('nps', text.kpiNps);
  if (flags.askResearchCsat) survey('csat', text.kpiCsat);
  return kpis;
}

/** True when the period has no chat and no online time (the empty state). */
export function isEmptyReport(report: DashboardReport): boolean {
  return report.days.every((d) => d.roomDate.countRooms === 0 && d.userStatus.agents.length === 0);
}
