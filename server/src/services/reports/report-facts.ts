/**
 * What one room and one agent's status records add to the daily reports (docs/reports.md).
 * Pure functions: the incremental path (a room changed in a transaction) and the rebuild (a
 * range recomputed from raw data) both call them, which is why their numbers are identical.
 */

/** One additive counter: kind, department ('' none), key, sub-key, occurrences, sum. */
export type Contribution = [kind: string, dept: string, key: string, sub: string, n: number, total: number];

/** The raw data of a room the reports read (rooms, messages, room_members, room_transfers). */
export interface RoomRaw {
  id: string;
  createdAt: string;
  closedAt: string | null;
  internal: boolean;
  channelId: string | null;
  contactId: string | null;
  departmentId: string | null;
  npsValue: number | null;
  csatValue: number | null;
  npsRequested: boolean;
  csatRequested: boolean;
  /** Per agent who wrote to the customer (not internal notes): first and last message instants. */
  agentMessages: { authorId: string; first: string; last: string }[];
  tags: string[];
  transfers: { fromDepartmentId: string | null; toDepartmentId: string | null; fromUserId: string | null }[];
  /**
   * Flow runs the bot reported in this chat (docs/flows.md); undefined when not read (a room
   * write re-files the chat without reading them: see `carryFlowContributions`).
   */
  flowRuns?: { flowId: string; completed: boolean; results: Record<string, string> }[];
}

/** Separates a flow result's name from its value in a counter's sub-key (never in either: control characters are refused). */
export const FLOW_RESULT_SEP = '\u0002';

/** The facts of a room: the local day it is filed under and what it adds there. */
export interface RoomFacts {
  day: string;
  contributions: Contribution[];
}

/** Status texts that count as time online in userStatus (the rest: away, pauses, offline). */
const ONLINE_STATUSES = new Set(['online', 'logon']);
/** Presence window (seed 002 §9): without a record for 90 s an agent is offline. */
export const ONLINE_WINDOW_MS = 90_000;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** Local calendar day and hour of an instant in a time zone. */
export function localDayHour(at: number, timeZone: string): { day: string; hour: number; offsetMs: number } {
  const parts = formatter(timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const y = get('year');
  const mo = get('month');
  const d = get('day');
  const h = get('hour');
  const asUtc = Date.UTC(y, mo - 1, d, h, get('minute'), get('second'));
  return { day: `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`, hour: h, offsetMs: asUtc - Math.floor(at / 1000) * 1000 };
}

/** The instant a local day starts in a time zone (DST-safe: the offset is checked twice). */
export function startOfDay(day: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  let guess = midnightUtc - localDayHour(midnightUtc, timeZone).offsetMs;
  guess = midnightUtc - localDayHour(guess, timeZone).offsetMs;
  return guess;
}

/** The day after a 'YYYY-MM-DD' day. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * A room's contributions, all filed under its local creation day (a day's report describes the
 * chats that started that day; later events of the chat update that day's figures):
 * rooms, contacts, channel and department counts, the hour heatmap, agents who answered,
 * time to the first agent answer, handling time (creation to close) by the last agent who
 * answered and by department, surveys requested/answered (by that agent), tags, transfers and
 * the flow runs the bot reported (started, completed, each result value).
 */
export function roomFacts(room: RoomRaw, timeZone: string): RoomFacts | null {
  if (room.internal) return null;
  const created = Date.parse(room.createdAt);
  if (Number.isNaN(created)) return null;
  const { day, hour } = localDayHour(created, timeZone);
  const dept = room.departmentId ?? '';
  const contact = room.contactId ?? '';
  const out: Contribution[] = [
    ['rooms', dept, '', '', 1, 0],
    ['hour', dept, String(hour), '', 1, 0],
    ['channel', dept, room.channelId ?? '', '', 1, 0],
  ];
  if (contact) {
    out.push(['contact', dept, contact, '', 1, 0]);
    out.push(['channelContact', dept, room.channelId ?? '', contact, 1, 0]);
  }
  const answers = [...room.agentMessages].sort((a, b) => a.first.localeCompare(b.first) || a.authorId.localeCompare(b.authorId));
  for (const a of answers) {
    out.push(['agent', dept, a.authorId, '', 1, 0]);
    if (contact) out.push(['agentContact', dept, a.authorId, contact, 1, 0]);
  }
  const first = answers[0];
  if (first) {
    const ms = Math.max(0, Date.parse(first.first) - created);
    out.push(['firstAttendAgent', dept, first.authorId, '', 1, ms]);
    out.push(['firstAttendDepartment', dept, '', '', 1, ms]);
  }
  // The agent who answered last is the one who finished the chat (after transfers too).
  const last = [...answers].sort((a, b) => b.last.localeCompare(a.last) || a.authorId.localeCompare(b.authorId))[0];
  const agentKey = last?.authorId ?? '';
  if (room.closedAt) {
    const ms = Math.max(0, Date.parse(room.closedAt) - created);
    if (last) out.push(['tmaAgent', dept, agentKey, '', 1, ms]);
    out.push(['tmaDepartment', dept, '', '', 1, ms]);
  }
  if (room.npsRequested || room.npsValue !== null) out.push(['npsRequested', dept, agentKey, '', 1, 0]);
  if (room.npsValue !== null) out.push(['npsAnswered', dept, agentKey, String(room.npsValue), 1, room.npsValue]);
  if (room.csatRequested || room.csatValue !== null) out.push(['csatRequested', dept, agentKey, '', 1, 0]);
  if (room.csatValue !== null) out.push(['csatAnswered', dept, agentKey, String(room.csatValue), 1, room.csatValue]);
  for (const tag of [...new Set(room.tags)].sort()) out.push(['tag', dept, tag, '', 1, 0]);
  for (const t of room.transfers) {
    out.push(['transfer', dept, t.fromDepartmentId ?? '', t.toDepartmentId ?? '', 1, 0]);
    if (t.fromUserId) out.push(['transferAgent', dept, t.fromUserId, '', 1, 0]);
  }
  // A run counts where the chat counts: its creation day and department (total = completed).
  for (const run of room.flowRuns ?? []) {
    out.push(['flow', dept, run.flowId, '', 1, run.completed ? 1 : 0]);
    for (const name of Object.keys(run.results).sort()) out.push(['flowResult', dept, run.flowId, `${name}${FLOW_RESULT_SEP}${run.results[name]}`, 1, 0]);
  }
  return { day, contributions: out };
}

const FLOW_KINDS = new Set(['flow', 'flowResult']);

/**
 * Flow runs change only when the bot reports one (which re-files the chat reading them); an
 * ordinary room write re-files it without that read — one statement less per inbound message —
 * and keeps the runs' contributions it had, under the room's department now.
 */
export function carryFlowContributions(after: RoomFacts | null, before: RoomFacts | null, departmentId: string | null): RoomFacts | null {
  if (!after || !before) return after;
  const carried = before.contributions.filter((c) => FLOW_KINDS.has(c[0])).map((c): Contribution => [c[0], departmentId ?? '', c[2], c[3], c[4], c[5]]);
  return carried.length ? { day: after.day, contributions: [...after.contributions, ...carried] } : after;
}

/** A status record as userStatus reads it. */
export interface StatusPoint {
  userId: string;
  status: string;
  at: number;
}

/**
 * Online time an agent's record adds until the next record (or until the presence window
 * closes): `min(next - at, 90 s)` when the record says online, split at local midnights.
 * Answers [day, ms] pieces; the incremental path calls it for the pair (previous, new record).
 */
export function onlinePieces(previous: StatusPoint, nextAt: number, timeZone: string): [string, number][] {
  if (!ONLINE_STATUSES.has(previous.status.toLowerCase())) return [];
  const end = Math.min(nextAt, previous.at + ONLINE_WINDOW_MS);
  const pieces: [string, number][] = [];
  let from = previous.at;
  while (from < end) {
    const { day } = localDayHour(from, timeZone);
    const boundary = startOfDay(nextDay(day), timeZone);
    const to = Math.min(end, boundary);
    pieces.push([day, to - from]);
    from = to;
  }
  return pieces;
}

/** Key of a counter row (day + the five identifying columns). */
export function counterKey(day: string, c: Contribution): string {
  return `${day}\u0001${c[0]}\u0001${c[1]}\u0001${c[2]}\u0001${c[3]}`;
}

/** Sums contributions per counter: the deltas that turn `before` into `after`. */
export function diffFacts(before: RoomFacts | null, after: RoomFacts | null): Map<string, { day: string; c: Contribution }> {
  const out = new Map<string, { day: string; c: Contribution }>();
  const add = (facts: RoomFacts | null, sign: number) => {
    if (!facts) return;
    for (const c of facts.contributions) {
      const key = counterKey(facts.day, c);
      const cur = out.get(key);
      if (cur) {
        cur.c[4] += sign * c[4];
        cur.c[5] += sign * c[5];
      } else out.set(key, { day: facts.day, c: [c[0], c[1], c[2], c[3], sign * c[4], sign * c[5]] });
    }
  };
  add(before, -1);
  add(after, 1);
  for (const [key, v] of out) if (v.c[4] === 0 && v.c[5] === 0) out.delete(key);
  return out;
}
