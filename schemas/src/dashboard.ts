import { format, messages } from './messages';

/**
 * The dashboard's rules (seed 002 §4, §5, §9), shared by the screen and the server: periods,
 * filter defaults, NPS/CSAT scales and scores, axis and label rules, chart CSV files.
 */

export const DASHBOARD_LAST_DAYS = [7, 15, 30, 60, 90] as const;
export const DASHBOARD_MAX_RANGE_DAYS = 90;
/** Below this window width the layout is marked small (seed 002 §2). */
export const DASHBOARD_NARROW_BELOW_PX = 2400;
export const KPI_COLORS = { detractors: '#c73c35', passives: '#f2b000', promoters: '#01b882' } as const;

export interface DashboardFilters {
  /** 'Last N days' (null when a range is chosen). */
  lastDays: number | null;
  /** A [from, to] range of 'YYYY-MM-DD' days (null when 'last N days' is chosen). */
  range: [string, string] | null;
  agents: string[];
  departments: string[];
  columns: 1 | 2 | 3 | 4;
  monthly: boolean;
  chartType: 'bar' | 'line';
  legend: 'top' | 'right';
  average: boolean;
}

/** 'Limpar filtros' goes back to these (seed 002 §4). */
export const DEFAULT_DASHBOARD_FILTERS: DashboardFilters = {
  lastDays: 7,
  range: null,
  agents: [],
  departments: [],
  columns: 3,
  monthly: false,
  chartType: 'bar',
  legend: 'right',
  average: false,
};

const DAY_MS = 86_400_000;
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** A real 'YYYY-MM-DD' day. */
export function isDay(d: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`));
}

/** Days from one 'YYYY-MM-DD' day to another, in either order. */
export function daysBetween(a: string, b: string): number {
  return Math.abs(Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS;
}

/**
 * A chosen range as the picker keeps it: swapped dates reordered, the end at most yesterday,
 * the span at most 90 days from the first date. Null when it cannot be a period.
 */
export function normalizeRange(a: string, b: string, today: string): [string, string] | null {
  if (!isDay(a) || !isDay(b)) return null;
  let [from, to] = a <= b ? [a, b] : [b, a];
  const yesterday = addDays(today, -1);
  if (to > yesterday) to = yesterday;
  if (from > to) return null;
  if (daysBetween(from, to) > DASHBOARD_MAX_RANGE_DAYS) from = addDays(to, -DASHBOARD_MAX_RANGE_DAYS);
  return [from, to];
}

/**
 * The days a date picker offers once `day` is chosen as one end (seed 002): within 90 days of
 * it, and up to yesterday. Before a day is chosen, anything up to yesterday.
 */
export function rangeAround(day: string, today: string): { min?: string; max: string } {
  const yesterday = addDays(today, -1);
  if (!isDay(day)) return { max: yesterday };
  const latest = addDays(day, DASHBOARD_MAX_RANGE_DAYS);
  return { min: addDays(day, -DASHBOARD_MAX_RANGE_DAYS), max: latest < yesterday ? latest : yesterday };
}

/** The period a filter set asks for: 'last N days' ends yesterday (seed 002 §7). */
export function periodOf(filters: Pick<DashboardFilters, 'lastDays' | 'range'>, today: string): { from: string; to: string } {
  if (filters.range) return { from: filters.range[0], to: filters.range[1] };
  const days = filters.lastDays ?? 7;
  const to = addDays(today, -1);
  return { from: addDays(to, -(days - 1)), to };
}

/** Chips of a multi-select: at most `max` names, then '(+N outro(s))' (legend: 2 then '(+N outros)'). */
export function chipLabels(names: string[], kind: 'filter' | 'legend' = 'filter'): string[] {
  const max = kind === 'filter' ? 3 : 2;
  if (names.length <= max) return names;
  const more = names.length - max;
  return [...names.slice(0, max), format(kind === 'filter' ? messages.dashboard.moreChips : messages.dashboard.moreLegend, { n: more })];
}

export type SurveyClass = 'detractor' | 'passive' | 'promoter' | null;

/** NPS class of an answer (seed 002 §9): 0–10 by default, 1–5 with likertScale5. */
export function npsClass(value: number, likertScale5 = false): SurveyClass {
  if (likertScale5) return value < 4 ? 'detractor' : value < 5 ? 'passive' : value === 5 ? 'promoter' : null;
  return value < 7 ? 'detractor' : value < 9 ? 'passive' : 'promoter';
}

/**
 * CSAT class of an answer (seed 002 §9). Default 1–5: under 2 detractor, exactly 3 passive,
 * 4 and above promoter — a 2 is in no group (the seed's table), it still counts in the total.
 * likertScale10: under 5, 5 to under 7, 7 and above.
 */
export function csatClass(value: number, likertScale10 = false): SurveyClass {
  if (likertScale10) return value < 5 ? 'detractor' : value < 7 ? 'passive' : 'promoter';
  return value < 2 ? 'detractor' : value === 3 ? 'passive' : value >= 4 ? 'promoter' : null;
}

export interface SurveyBreakdown {
  total: number;
  detractors: number;
  passives: number;
  promoters: number;
}

/** Counts answers `{ value: count }` by class. */
export function surveyBreakdown(values: Record<string, number>, classOf: (v: number) => SurveyClass): SurveyBreakdown {
  const out: SurveyBreakdown = { total: 0, detractors: 0, passives: 0, promoters: 0 };
  for (const [value, count] of Object.entries(values)) {
    out.total += count;
    const c = classOf(Number(value));
    if (c === 'detractor') out.detractors += count;
    else if (c === 'passive') out.passives += count;
    else if (c === 'promoter') out.promoters += count;
  }
  return out;
}

/** NPS score: % promoters − % detractors, rounded (0 without answers). */
export function npsScore(b: SurveyBreakdown): number {
  if (!b.total) return 0;
  return Math.round((b.promoters / b.total) * 100 - (b.detractors / b.total) * 100);
}

/** CSAT score: promoters' percentage of the total, two decimals if not whole. */
export function csatScore(b: SurveyBreakdown): number {
  if (!b.total) return 0;
  const pct = (b.promoters / b.total) * 100;
  return Number.isInteger(pct) ? pct : Math.round(pct * 100) / 100;
}

/** Y axis maximum: 1.2 × the largest value, rounded up; 10 when that cannot be computed. */
export function axisMax(values: number[]): number {
  try {
    const max = Math.max(...values.filter((v) => Number.isFinite(v)));
    if (!Number.isFinite(max) || max <= 0) return 10;
    return Math.ceil(max * 1.2);
  } catch {
    return 10;
  }
}

/** Heatmap bucket label 'Nh-(N+1)h'. */
export const heatmapLabel = (hour: number) => `${hour}h-${hour + 1}h`;

/** Line charts hide data labels with more than 5 series; sparklines label 1–30 points only. */
export const showLineLabels = (series: number) => series <= 5;
export const showSparklineLabels = (labels: number) => labels >= 1 && labels <= 30;

/** 'YYYY-MM-DD' as pt-BR 'DD/MM/YYYY'; 'YYYY-MM' as 'MM/YYYY'. */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split('-');
  return d ? `${d}/${m}/${y}` : `${m}/${y}`;
}

/** A value to a CSV cell: formulas neutralised (OWASP), ; and quotes quoted. */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A chart's CSV (seed 002 §7): semicolon-delimited, header row first. */
export function chartCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n') + '\r\n';
}

/** A chart CSV's file name: host, chart title and period (seed 002 §7). */
export function chartCsvFileName(host: string, title: string, from: string, to: string): string {
  const safe = (s: string) => s.replace(/[\\/:*?"<>|]+/g, '-').trim();
  return `${safe(host)} - ${safe(title)} - ${dayLabel(from).replace(/\//g, '-')} a ${dayLabel(to).replace(/\//g, '-')}.csv`;
}

/** Monthly view: the key a day is grouped under ('YYYY-MM'). */
export const monthOf = (day: string) => day.slice(0, 7);

/** One day of `GET /api/dashboard/reports` (the seed's report documents, 002 §3, plus sums). */
export interface ReportDay {
  date: string;
  dateRef: string;
  roomDate: {
    countRooms: number;
    countContacts: number;
    agentsRooms: { agent: string; count: number; countContacts: number }[];
    departmentRooms: { departament: string; departmentId: string; count: number }[];
    channelRooms: { channelId: string; label: string; countRooms: number; countContacts: number }[];
  };
  firstAttend: {
    agents: { agent: string; avgTime: number; count: number; totalMs: number }[];
    departaments: { departament: string; avgTime: number; count: number; totalMs: number }[];
  };
  userStatus: { agents: { agent: string; totalHours: number; totalMs: number }[] };
  npsAnswered: { npsAgents: { agent: string; avg: number; totalCount: number; total: number; values: Record<string, number> }[] };
  npsRequested: { npsAgents: { agent: string; totalCount: number }[] };
  csatAnswered: { csatAgents: { agent: string; avg: number; totalCount: number; total: number; values: Record<string, number>; roomsValue: Record<string, number> }[] };
  csatRequested: { csatAgents: { agent: string; totalCount: number }[] };
  tagsReport: { tags: { id: string; name: string; color: string; count: number; departments: { departament: string; count: number }[] }[] };
  agentTMA: { tma: { agentId: string; avg: number; count: number; totalMs: number }[] };
  departmentTMA: { tma: { departmentId: string; avg: number; count: number; totalMs: number }[] };
  roomsHoursHeatmap: { hoursHitmap: { hour: number; label: string; count: number }[] };
  transfers: { count: number; departments: { from: string; to: string; count: number }[]; agents: { agent: string; count: number }[] };
  /**
   * Flow runs reported by the bot that ran them (docs/flows.md), filed on the chat's day:
   * runs started and completed per flow, and `expected` (runs whose results hold the flow's
   * expected result, when the flow defines one).
   */
  flows: { flows: { id: string; name: string; count: number; completed: number; expected: number | null }[] };
  /** Flow results (seed 002 §3): per flow and result name, each value (labels) and its count (results). */
  flowResults: { results: { flowId: string; flowName: string; title: string; labels: string[]; results: number[] }[] };
}

/** `GET /api/dashboard/reports` data. */
export interface DashboardReport {
  from: string;
  to: string;
  timeZone: string;
  days: ReportDay[];
  agents: { id: string; displayName: string }[];
  departments: { id: string; displayName: string }[];
  channels: { id: string; label: string }[];
  tags: { id: string; name: string; color: string }[];
}

/** What `POST /api/dashboard/export` takes (seed 002 §7 getExportData). */
export interface DashboardExportRequest {
  period: [string, string];
  fileType: 'csv' | 'json';
  /** 'UTC', or an IANA zone name (the browser's). */
  timezone: string;
  /** Minutes behind UTC as Date#getTimezoneOffset gives them; ignored for UTC. */
  timezoneOffset: number;
  /** Reference date: creation, NPS answer or CSAT answer. */
  reference: 'createdAt' | 'nps' | 'csat';
}

/**
 * The export dialog's four validations (seed 002 §5), the same on the server: exactly two
 * real dates (reordered, ≤ 90 days, ending yesterday at latest), a file type, a time zone
 * and a reference date. Answers the request or the problems by field.
 */
export function validateExportRequest(body: unknown, today: string): { value: DashboardExportRequest } | { errors: { field: string; message: string }[] } {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors: { field: string; message: string }[] = [];
  const period = Array.isArray(b.period) && b.period.length === 2 ? normalizeRange(String(b.period[0]), String(b.period[1]), today) : null;
  if (!period) errors.push({ field: 'period', message: messages.validation.exportPeriod });
  if (b.fileType !== 'csv' && b.fileType !== 'json') errors.push({ field: 'fileType', message: messages.validation.exportFileType });
  let zoneOk = typeof b.timezone === 'string' && b.timezone.trim() !== '' && b.timezone.length <= 64;
  if (zoneOk && b.timezone !== 'UTC') {
    try {
      new Intl.DateTimeFormat('en', { timeZone: b.timezone as string });
    } catch {
      zoneOk = false;
    }
  }
  const offset = b.timezoneOffset === undefined || b.timezoneOffset === null ? 0 : Number(b.timezoneOffset);
  if (!zoneOk || !Number.isInteger(offset) || Math.abs(offset) > 14 * 60) errors.push({ field: 'timezone', message: messages.validation.exportTimezone });
  if (b.reference !== 'createdAt' && b.reference !== 'nps' && b.reference !== 'csat') errors.push({ field: 'reference', message: messages.validation.exportReferenceDate });
  if (errors.length || !period) return { errors };
  return {
    value: { period, fileType: b.fileType as 'csv' | 'json', timezone: b.timezone as string, timezoneOffset: b.timezone === 'UTC' ? 0 : offset, reference: b.reference as DashboardExportRequest['reference'] },
  };
}
