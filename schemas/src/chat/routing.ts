import { messages } from '../messages';
import { DEFAULT_TIME_ZONE } from './closing';

/**
 * Routing rules written once for the server and the screens (docs/routing.md): the agent
 * selection rules of a department (seed 000 §9), its automatic message rules (seed 001 §3,
 * §5), business hours (daysWork, seed 000 §3) in the tenant's time zone, and which
 * contingency (seed 000 §3) answers a chat. Pure functions: no I/O, no clock of their own.
 */

/** Department agentSelectionRule values and their labels (seed 000 §9). */
export const AGENT_SELECTION_RULES = {
  wait: 'Aguardar em fila',
  load: 'Menor carga',
  predefinedOrder: 'Ordem predefinida',
} as const;
export type AgentSelectionRule = keyof typeof AGENT_SELECTION_RULES;

export function selectionRuleOf(value: unknown): AgentSelectionRule {
  return typeof value === 'string' && value in AGENT_SELECTION_RULES ? (value as AgentSelectionRule) : 'wait';
}

/** Automatic department message rule (seed 001 §3): stored in the department's `queueMessages`. */
export interface AutomaticRule {
  command: 'sendMessage' | 'closeChat' | '';
  arg?: string | null;
  timeInMinutes: number | string | null;
  repeat?: boolean;
}

export const RULE_COMMANDS = { sendMessage: 'Enviar mensagem', closeChat: 'Encerrar chat' } as const;

export interface RuleProblem {
  index: number;
  field: 'command' | 'timeInMinutes' | 'arg';
  message: string;
}

/**
 * The rules dialog's checks (seed 001 §5), in the seed's order: a command, minutes given
 * ('Campo Obrigatorio') and a whole number above 0, and a non-blank text for sendMessage. The server validates the same
 * list with the department's JSON Schema, which carries the same texts.
 */
export function validateAutomaticRules(rules: readonly AutomaticRule[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  rules.forEach((rule, index) => {
    if (rule.command !== 'sendMessage' && rule.command !== 'closeChat') problems.push({ index, field: 'command', message: messages.validation.ruleCommand });
    const minutes = Number(rule.timeInMinutes);
    // Blank minutes is the generic required rule ('Campo Obrigatorio'); '0' or a fraction is the rule's own.
    if (rule.timeInMinutes === null || rule.timeInMinutes === '') problems.push({ index, field: 'timeInMinutes', message: messages.validation.requiredFieldRule });
    else if (!Number.isInteger(minutes) || minutes < 1) problems.push({ index, field: 'timeInMinutes', message: messages.validation.ruleMinutes });
    if (rule.command === 'sendMessage' && !(rule.arg ?? '').trim()) problems.push({ index, field: 'arg', message: messages.validation.ruleText });
  });
  return problems;
}

/** What the dialog saves: minutes as numbers (seed 001 §5), texts trimmed, closeChat without text. */
export function normaliseAutomaticRules(rules: readonly AutomaticRule[]): { command: 'sendMessage' | 'closeChat'; arg?: string; timeInMinutes: number; repeat: boolean }[] {
  return rules.map((rule) => ({
    command: rule.command as 'sendMessage' | 'closeChat',
    ...(rule.command === 'sendMessage' && { arg: (rule.arg ?? '').trim() }),
    timeInMinutes: Number(rule.timeInMinutes),
    repeat: Boolean(rule.repeat),
  }));
}

/** 'HH:MM' → minutes, or null when blank or malformed (inactiveTime, daysWork slots). */
export function minutesOf(hhmm: unknown): number | null {
  if (typeof hhmm !== 'string') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export interface WorkDay {
  enable?: boolean;
  startAt1?: string | null;
  endAt1?: string | null;
  startAt2?: string | null;
  endAt2?: string | null;
}
export type DaysWork = Partial<Record<WeekDay, WorkDay>>;

/** Local date parts of an instant in a time zone. */
function localParts(at: number, timeZone: string): { year: number; month: number; day: number; weekday: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short', hour: 'numeric', minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { year: Number(get('year')), month: Number(get('month')), day: Number(get('day')), weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** The instant of a local wall-clock time (minutes after midnight of y-m-d) in a time zone. */
export function zonedInstant(year: number, month: number, day: number, minute: number, timeZone: string): number {
  const wanted = Date.UTC(year, month - 1, day, 0, minute);
  let guess = wanted;
  // Two passes settle the offset, also across a daylight-saving change.
  for (let i = 0; i < 2; i++) {
    const p = localParts(guess, timeZone);
    const seen = Date.UTC(p.year, p.month - 1, p.day, 0, p.minute);
    guess += wanted - seen;
  }
  return guess;
}

/** The slots of one day as [start, end) minutes; an end at or before its start runs past midnight. */
function slotsOf(day: WorkDay | undefined): { start: number; end: number }[] {
  if (!day?.enable) return [];
  const slots: { start: number; end: number }[] = [];
  for (const [s, e] of [[day.startAt1, day.endAt1], [day.startAt2, day.endAt2]] as const) {
    const start = minutesOf(s);
    const end = minutesOf(e);
    if (start !== null && end !== null) slots.push({ start, end });
  }
  // An enabled day without any slot filled in is open all day.
  return slots.length ? slots : [{ start: 0, end: 1440 }];
}

/** Business hours apply once at least one day is enabled; a department without them is always open. */
export function hasBusinessHours(daysWork: DaysWork | null | undefined): boolean {
  return Boolean(daysWork && WEEK_DAYS.some((d) => daysWork[d]?.enable));
}

/**
 * Whether the department serves at `at` (seed 000 §3 daysWork), in the tenant's time zone.
 * Each enabled day has up to two slots; a slot whose end is at or before its start crosses
 * midnight (22:00–02:00 serves Monday 22:00 to Tuesday 02:00, from Monday's row).
 */
export function isOpenAt(daysWork: DaysWork | null | undefined, at: Date | number, timeZone: string = DEFAULT_TIME_ZONE): boolean {
  if (!hasBusinessHours(daysWork)) return true;
  const p = localParts(+at, timeZone);
  const today = WEEK_DAYS[p.weekday]!;
  const yesterday = WEEK_DAYS[(p.weekday + 6) % 7]!;
  for (const slot of slotsOf(daysWork![today])) {
    if (slot.end > slot.start ? p.minute >= slot.start && p.minute < slot.end : p.minute >= slot.start) return true;
  }
  for (const slot of slotsOf(daysWork![yesterday])) {
    if (slot.end <= slot.start && p.minute < slot.end) return true;
  }
  return false;
}

/** The next instant at or after `at` when the department opens, or null if it never does. */
export function nextOpening(daysWork: DaysWork | null | undefined, at: Date | number, timeZone: string = DEFAULT_TIME_ZONE): Date | null {
  const from = +at;
  if (isOpenAt(daysWork, from, timeZone)) return new Date(from);
  if (!hasBusinessHours(daysWork)) return new Date(from);
  let best: number | null = null;
  const p = localParts(from, timeZone);
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(p.year, p.month - 1, p.day + offset));
    const weekday = WEEK_DAYS[date.getUTCDay()]!;
    for (const slot of slotsOf(daysWork![weekday])) {
      const start = zonedInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), slot.start, timeZone);
      if (start > from && (best === null || start < best)) best = start;
    }
    if (best !== null) break;
  }
  return best === null ? null : new Date(best);
}

/** A contingency record (seed 000 §3 "Contingency") as routing reads it. */
export interface ContingencyRecord {
  id: string;
  active?: boolean;
  finished?: boolean;
  closeChat?: boolean;
  newChatsOnly?: boolean;
  inAttend?: boolean;
  startDate?: string;
  startHour?: string;
  endDate?: string;
  endHour?: string;
  startTime?: string | null;
  endTime?: string | null;
  timezoneOffset?: number | null;
  channels?: string[] | null;
  flow?: string | null;
  departamentId?: string | null;
  tags?: string[] | null;
  defaultMessage?: string | null;
}

/** ISO instant of a local date and HH:MM at a UTC offset in hours (the record's timezoneOffset). */
export function offsetInstant(date: string, hour: string, offsetHours: number): string {
  const minutes = minutesOf(hour) ?? 0;
  return new Date(Date.parse(`${date}T00:00:00Z`) + (minutes - offsetHours * 60) * 60_000).toISOString();
}

/** [start, end) of a contingency: startTime/endTime when stored, else its dates, hours and offset. */
export function contingencyWindow(c: ContingencyRecord): { start: string; end: string } | null {
  const offset = typeof c.timezoneOffset === 'number' ? c.timezoneOffset : -3;
  const start = c.startTime || (c.startDate && c.startHour ? offsetInstant(c.startDate, c.startHour, offset) : null);
  const end = c.endTime || (c.endDate && c.endHour ? offsetInstant(c.endDate, c.endHour, offset) : null);
  if (!start || !end || Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end))) return null;
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

/**
 * The contingency that answers a chat of `departmentId` on `channelId` at `at`, or null.
 * Active means switched on, not finished, and `at` inside [start, end). When several match,
 * the most specific wins (department and channel named > department > channel > neither),
 * then the one that started last, then the id: one chat gets one contingency's message.
 */
export function contingencyFor(list: readonly ContingencyRecord[], chat: { departmentId: string | null; channelId: string | null }, at: Date | number): ContingencyRecord | null {
  const now = new Date(+at).toISOString();
  let best: { c: ContingencyRecord; score: number; start: string } | null = null;
  for (const c of list) {
    if (c.active === false || c.finished) continue;
    const window = contingencyWindow(c);
    if (!window || now < window.start || now >= window.end) continue;
    const channels = (c.channels ?? []).filter(Boolean);
    if (c.departamentId && c.departamentId !== chat.departmentId) continue;
    if (channels.length && (!chat.channelId || !channels.includes(chat.channelId))) continue;
    const score = (c.departamentId ? 2 : 0) + (channels.length ? 1 : 0);
    if (!best || score > best.score || (score === best.score && (window.start > best.start || (window.start === best.start && c.id < best.c.id)))) {
      best = { c, score, start: window.start };
    }
  }
  return best?.c ?? null;
}
