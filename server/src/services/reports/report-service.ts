import { DEFAULT_TIME_ZONE, isAdmin, messages, type User } from '@atendimento/schemas';
import type { Db, Transaction } from '../../db/knex';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { validationError } from '../../errors';
import type { Change } from '../changes/change-feed';
import type { DailyRow, ReportRepository, ReportScope } from '../../db/repositories/report-repository';
import { carryFlowContributions, diffFacts, FLOW_RESULT_SEP, localDayHour, nextDay, onlinePieces, roomFacts, startOfDay, ONLINE_WINDOW_MS, type Contribution, type StatusPoint } from './report-facts';

/**
 * An event another domain reports explicitly (a transfer written to room_transfers, a survey
 * requested or answered). Room writes that record a `rooms` change need no call: the change
 * feed hands them to `onChanges` before commit.
 */
export type ReportEvent =
  | { type: 'room.transferred'; roomId: string }
  | { type: 'survey.requested'; roomId: string }
  | { type: 'survey.answered'; roomId: string }
  | { type: 'room.changed'; roomId: string }
  | { type: 'flow.run'; roomId: string };

/** Who reads the dashboard: admins see all, others the departments they supervise (seed 002 §6). */
export interface DashboardViewer {
  user: Pick<User, 'claims'> & { id: string };
  supervisorOf: string[];
}

export interface DashboardQuery {
  from?: unknown;
  to?: unknown;
  days?: unknown;
  agents?: unknown;
  departments?: unknown;
}

const DAY_MS = 86_400_000;
const MAX_SPAN_DAYS = 90;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function listParam(raw: unknown): string[] {
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  return [...new Set(values.map((v) => String(v).trim()).filter(Boolean))].slice(0, 500);
}

function sortDeltas(deltas: Iterable<{ day: string; c: Contribution }>) {
  return [...deltas].sort((a, b) => (a.day + '\u0001' + a.c.slice(0, 4).join('\u0001')).localeCompare(b.day + '\u0001' + b.c.slice(0, 4).join('\u0001')));
}

/** Averages in seconds with two decimals (the charts' unit for times). */
const avgSeconds = (total: number, n: number) => (n ? Math.round((total / n / 1000) * 100) / 100 : 0);
const avgValue = (total: number, n: number) => (n ? Math.round((total / n) * 100) / 100 : 0);

/**
 * The daily reports (docs/reports.md): kept incrementally inside the transaction of each room
 * or status write, rebuilt from raw data on demand, read by the dashboard within the caller's
 * scope.
 */
export function createReportService(deps: { db: Db; repo: ReportRepository; clock: Clock; logger: Logger }) {
  const { db, repo, clock } = deps;
  const zones = new Map<string, { zone: string; until: number }>();

  async function zoneOf(q: Db | Transaction, tenantId: string): Promise<string> {
    const now = Date.now();
    const cached = zones.get(tenantId);
    if (cached && cached.until > now) return cached.zone;
    const zone = (await repo.timeZone(q, tenantId)) || DEFAULT_TIME_ZONE;
    zones.set(tenantId, { zone, until: now + 60_000 });
    return zone;
  }

  /** Re-files rooms: retracts what each contributed and adds what it contributes now. */
  async function refreshRooms(trx: Transaction, tenantId: string, roomIds: string[], options: { flowRuns?: boolean } = {}): Promise<void> {
    const ids = [...new Set(roomIds)].sort();
    if (ids.length === 0) return;
    const zone = await zoneOf(trx, tenantId);
    const raws = new Map((await repo.roomRaw(trx, tenantId, ids, { lock: true, flowRuns: options.flowRuns })).map((r) => [r.id, r]));
    const before = await repo.facts(trx, tenantId, ids);
    const deltas = new Map<string, { day: string; c: Contribution }>();
    for (const id of ids) {
      const raw = raws.get(id);
      const old = before.get(id) ?? null;
      const fresh = raw ? roomFacts(raw, zone) : null;
      const after = options.flowRuns ? fresh : carryFlowContributions(fresh, old, raw?.departmentId ?? null);
      const diff = diffFacts(old, after);
      if (diff.size === 0 && (old === null) === (after === null)) continue;
      for (const [key, v] of diff) {
        const cur = deltas.get(key);
        if (cur) {
          cur.c[4] += v.c[4];
          cur.c[5] += v.c[5];
        } else deltas.set(key, v);
      }
      await repo.saveFacts(trx, tenantId, id, after);
    }
    if (deltas.size) await repo.addCounters(trx, tenantId, sortDeltas(deltas.values()));
  }

  /** Adds the online time a new status record closes (the previous record's interval). */
  async function applyStatus(trx: Transaction, tenantId: string, statusId: string): Promise<void> {
    const pair = await repo.statusWithPrevious(trx, tenantId, statusId);
    if (!pair?.previous) return;
    const zone = await zoneOf(trx, tenantId);
    const pieces = onlinePieces(pair.previous, pair.current.at, zone);
    if (pieces.length === 0) return;
    await repo.addCounters(trx, tenantId, pieces.map(([day, ms]) => ({ day, c: ['online', '', pair.previous!.userId, '', 0, ms] as Contribution })));
  }

  function toDayRange(query: DashboardQuery, zone: string): { from: string; to: string } {
    const today = localDayHour(clock.now().getTime(), zone).day;
    const yesterday = addDays(today, -1);
    if (query.from !== undefined || query.to !== undefined) {
      let from = String(query.from ?? '');
      let to = String(query.to ?? '');
      // A real calendar day: Date.parse takes '2026-02-31' (as 3 March), so the day must read back as itself.
      const realDay = (day: string) => DAY_RE.test(day) && !Number.isNaN(Date.parse(day)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
      if (!realDay(from) || !realDay(to)) {
        throw validationError([{ field: 'period', message: messages.validation.exportPeriod90 }]);
      }
      if (from > to) [from, to] = [to, from];
      // 'Today' is live and may be asked for; the screen's picker stops at yesterday (seed 002 §5).
      if (to > today || (Date.parse(to) - Date.parse(from)) / DAY_MS > MAX_SPAN_DAYS) {
        throw validationError([{ field: 'period', message: messages.validation.exportPeriod90 }]);
      }
      return { from, to };
    }
    const days = query.days === undefined ? 7 : Number(query.days);
    if (![7, 15, 30, 60, 90].includes(days)) throw validationError([{ field: 'days', message: messages.validation.exportPeriod90 }]);
    return { from: addDays(yesterday, -(days - 1)), to: yesterday };
  }

  /** The departments and agents a viewer may see, narrowed by the chosen filters. */
  async function scopeOf(tenantId: string, viewer: DashboardViewer, query: DashboardQuery): Promise<{ scope: ReportScope; agentFilter: Set<string> | null; allowedDepartments: string[] | null; allowedAgents: string[] | null }> {
    const admin = isAdmin(viewer.user);
    const allowedDepartments = admin ? null : [...viewer.supervisorOf];
    const allowedAgents = allowedDepartments ? await repo.agentsOfDepartments(db, tenantId, allowedDepartments) : null;
    const wantedDepartments = listParam(query.departments);
    const wantedAgents = listParam(query.agents);
    // Seed 002 §4: agents and departments are mutually exclusive; departments win if both come.
    let departments = allowedDepartments;
    if (wantedDepartments.length) departments = allowedDepartments ? wantedDepartments.filter((d) => allowedDepartments.includes(d)) : wantedDepartments;
    const agents = departments ? await repo.agentsOfDepartments(db, tenantId, departments) : null;
    let agentFilter: Set<string> | null = null;
    if (!wantedDepartments.length && wantedAgents.length) agentFilter = new Set(allowedAgents ? wantedAgents.filter((a) => allowedAgents.includes(a)) : wantedAgents);
    return { scope: { departments, agents }, agentFilter, allowedDepartments, allowedAgents };
  }

  /** Turns summed counters into the seed's daily documents (002 §3), one per day of the range. */
  function documents(from: string, to: string, rows: DailyRow[], contacts: { day: string; key: string; count: number }[][], agentFilter: Set<string> | null, names: Awaited<ReturnType<ReportRepository['names']>>) {
    const byDay = new Map<string, DailyRow[]>();
    for (const r of rows) {
      const list = byDay.get(r.day);
      if (list) list.push(r);
      else byDay.set(r.day, [r]);
    }
    const [dayContacts, agentContacts, channelContacts] = contacts;
    const lookup = (list: { day: string; key: string; count: number }[], day: string, key: string) => list.find((c) => c.day === day && c.key === key)?.count ?? 0;
    const channelLabel = new Map(names.channels.map((c) => [c.id, c.label]));
    const tagInfo = new Map(names.tags.map((t) => [t.id, t]));
    const flowInfo = new Map(names.flows.map((f) => [f.id, f]));
    const agentOk = (id: string) => !agentFilter || agentFilter.has(id);
    const out = [];
    for (let day = from; day <= to; day = nextDay(day)) {
      const list = byDay.get(day) ?? [];
      const sum = (kind: string, keyOf: (r: DailyRow) => string, filter: (r: DailyRow) => boolean = () => true) => {
        const m = new Map<string, { n: number; total: number }>();
        for (const r of list) {
          if (r.kind !== kind || !filter(r)) continue;
          const k = keyOf(r);
          const cur = m.get(k) ?? { n: 0, total: 0 };
          cur.n += r.n;
          cur.total += r.total;
          m.set(k, cur);
        }
        return m;
      };
      const agentRow = (r: DailyRow) => agentOk(r.key);
      const rooms = sum('rooms', () => '');
      const agentRooms = sum('agent', (r) => r.key, agentRow);
      const deptRooms = sum('rooms', (r) => r.dept);
      const channelRooms = sum('channel', (r) => r.key);
      const firstAgents = sum('firstAttendAgent', (r) => r.key, agentRow);
      const firstDepts = sum('firstAttendDepartment', (r) => r.dept);
      const tmaAgents = sum('tmaAgent', (r) => r.key, agentRow);
      const tmaDepts = sum('tmaDepartment', (r) => r.dept);
      const online = sum('online', (r) => r.key, agentRow);
      const survey = (kind: string) => {
        const m = new Map<string, { avg: number; totalCount: number; total: number; values: Record<string, number> }>();
        for (const r of list) {
          if (r.kind !== kind || !agentOk(r.key)) continue;
          const cur = m.get(r.key) ?? { avg: 0, totalCount: 0, total: 0, values: {} };
          cur.totalCount += r.n;
          cur.total += r.total;
          if (r.sub !== '') cur.values[r.sub] = (cur.values[r.sub] ?? 0) + r.n;
          m.set(r.key, cur);
        }
        return [...m.entries()].map(([agent, v]) => ({ agent, avg: avgValue(v.total, v.totalCount), totalCount: v.totalCount, total: v.total, values: v.values }));
      };
      const tagRows = list.filter((r) => r.kind === 'tag');
      const tags = new Map<string, { count: number; departments: Map<string, number> }>();
      for (const r of tagRows) {
        const t = tags.get(r.key) ?? { count: 0, departments: new Map() };
        t.count += r.n;
        t.departments.set(r.dept, (t.departments.get(r.dept) ?? 0) + r.n);
        tags.set(r.key, t);
      }
      const transfers = list.filter((r) => r.kind === 'transfer');
      const transferAgents = sum('transferAgent', (r) => r.key, agentRow);
      const hours = sum('hour', (r) => r.key);
      const csatAnswered = survey('csatAnswered');
      // Flow results per flow and result name: each value and its count (seed 002 §3 "flow results").
      const results = new Map<string, { flowId: string; title: string; values: Map<string, number> }>();
      for (const r of list) {
        if (r.kind !== 'flowResult') continue;
        const cut = r.sub.indexOf(FLOW_RESULT_SEP);
        const title = r.sub.slice(0, cut);
        const value = r.sub.slice(cut + 1);
        const id = `${r.key}${FLOW_RESULT_SEP}${title}`;
        const cur = results.get(id) ?? { flowId: r.key, title, values: new Map<string, number>() };
        cur.values.set(value, (cur.values.get(value) ?? 0) + r.n);
        results.set(id, cur);
      }
      const flowRuns = sum('flow', (r) => r.key);
      out.push({
        date: day,
        dateRef: day,
        roomDate: {
          countRooms: rooms.get('')?.n ?? 0,
          countContacts: lookup(dayContacts!, day, ''),
          agentsRooms: [...agentRooms].map(([agent, v]) => ({ agent, count: v.n, countContacts: lookup(agentContacts!, day, agent) })),
          departmentRooms: [...deptRooms].map(([dept, v]) => ({ departament: dept ? `depto${dept}` : '', departmentId: dept, count: v.n })),
          channelRooms: [...channelRooms].map(([id, v]) => ({ channelId: id, label: channelLabel.get(id) ?? id, countRooms: v.n, countContacts: lookup(channelContacts!, day, id) })),
        },
        firstAttend: {
          agents: [...firstAgents].map(([agent, v]) => ({ agent, avgTime: avgSeconds(v.total, v.n), count: v.n, totalMs: v.total })),
          departaments: [...firstDepts].map(([dept, v]) => ({ departament: dept, avgTime: avgSeconds(v.total, v.n), count: v.n, totalMs: v.total })),
        },
        userStatus: { agents: [...online].map(([agent, v]) => ({ agent, totalHours: Math.round((v.total / 3_600_000) * 10_000) / 10_000, totalMs: v.total })) },
        npsAnswered: { npsAgents: survey('npsAnswered') },
        npsRequested: { npsAgents: survey('npsRequested').map(({ agent, totalCount }) => ({ agent, totalCount })) },
        csatAnswered: { csatAgents: csatAnswered.map((a) => ({ ...a, roomsValue: a.values })) },
        csatRequested: { csatAgents: survey('csatRequested').map(({ agent, totalCount }) => ({ agent, totalCount })) },
        tagsReport: {
          tags: [...tags].map(([id, t]) => ({ id, name: tagInfo.get(id)?.name ?? id, color: tagInfo.get(id)?.color ?? '', count: t.count, departments: [...t.departments].map(([departament, count]) => ({ departament, count })) })),
        },
        agentTMA: { tma: [...tmaAgents].map(([agentId, v]) => ({ agentId, avg: avgSeconds(v.total, v.n), count: v.n, totalMs: v.total })) },
        departmentTMA: { tma: [...tmaDepts].map(([departmentId, v]) => ({ departmentId, avg: avgSeconds(v.total, v.n), count: v.n, totalMs: v.total })) },
        roomsHoursHeatmap: { hoursHitmap: Array.from({ length: 24 }, (_, h) => ({ hour: h, label: `${h}h-${h + 1}h`, count: hours.get(String(h))?.n ?? 0 })) },
        transfers: {
          count: transfers.reduce((s, r) => s + r.n, 0),
          departments: transfers.map((r) => ({ from: r.key, to: r.sub, count: r.n })),
          agents: [...transferAgents].map(([agent, v]) => ({ agent, count: v.n })),
        },
        flows: {
          flows: [...flowRuns].map(([id, v]) => {
            const info = flowInfo.get(id);
            // The expected result is read from the flow now, so editing it re-reads past days too.
            const want = info?.expectedResult;
            const expected = want ? results.get(`${id}${FLOW_RESULT_SEP}${want.name}`)?.values.get(want.value) ?? 0 : null;
            return { id, name: info?.name ?? id, count: v.n, completed: v.total, expected };
          }),
        },
        flowResults: {
          results: [...results.values()].map((r) => {
            const entries = [...r.values].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'pt-BR'));
            return { flowId: r.flowId, flowName: flowInfo.get(r.flowId)?.name ?? r.flowId, title: r.title, labels: entries.map((e) => e[0]), results: entries.map((e) => e[1]) };
          }),
        },
      });
    }
    return out;
  }

  return {
    /**
     * The change feed's pre-commit hook: rooms written in the transaction are re-filed and a
     * new status record adds the online time it closes, atomically with the write.
     */
    async onChanges(trx: Transaction, tenantId: string, changes: Change[]): Promise<void> {
      // A room is re-filed unless every change of it in the transaction says it is neutral.
      const rooms = [...new Set(changes.filter((c) => c.collection === 'rooms' && !c.reportNeutral).map((c) => c.id))];
      if (rooms.length) await refreshRooms(trx, tenantId, rooms);
      for (const c of changes) if (c.collection === 'status' && c.op === 'upsert') await applyStatus(trx, tenantId, c.id);
    },

    /**
     * One call for an event the feed does not carry as a room change (a transfer row, a survey
     * answer written without touching the room): re-files the room in the caller's transaction.
     * @example await reports.record(trx, tenantId, { type: 'room.transferred', roomId });
     */
    async record(trx: Transaction, tenantId: string, event: ReportEvent): Promise<void> {
      await refreshRooms(trx, tenantId, [event.roomId], { flowRuns: event.type === 'flow.run' });
    },

    refreshRooms,

    /**
     * Recomputes the local days [fromDay, toDay] from raw data (rooms, messages, tags,
     * transfers, status records), one transaction per day. Answers the rooms re-filed.
     */
    async rebuild(tenantId: string, fromDay: string, toDay: string): Promise<{ days: number; rooms: number }> {
      if (!DAY_RE.test(fromDay) || !DAY_RE.test(toDay) || fromDay > toDay) throw new Error(`reports.rebuild: bad range ${fromDay}..${toDay}. Pass YYYY-MM-DD days, from <= to.`);
      const zone = await zoneOf(db, tenantId);
      let days = 0;
      let roomCount = 0;
      for (let day = fromDay; day <= toDay; day = nextDay(day)) {
        const start = startOfDay(day, zone);
        const end = startOfDay(nextDay(day), zone);
        roomCount += await repo.transaction(async (trx) => {
          // Rooms filed on this day before (another time zone then) are re-filed where they belong.
          const previouslyFiled = await repo.factRoomIds(trx, tenantId, day, day);
          await repo.clearDays(trx, tenantId, day, day, 'rooms');
          const counters = new Map<string, { day: string; c: Contribution }>();
          const facts: { roomId: string; facts: NonNullable<ReturnType<typeof roomFacts>> }[] = [];
          let after = '';
          let n = 0;
          for (;;) {
            const ids = await repo.roomIdsCreatedBetween(trx, tenantId, new Date(start).toISOString(), new Date(end).toISOString(), after, 1000);
            if (ids.length === 0) break;
            after = ids[ids.length - 1]!;
            for (const raw of await repo.roomRaw(trx, tenantId, ids, { flowRuns: true })) {
              const f = roomFacts(raw, zone);
              if (!f) continue;
              n++;
              facts.push({ roomId: raw.id, facts: f });
              for (const c of f.contributions) {
                const key = `${f.day}\u0001${c.slice(0, 4).join('\u0001')}`;
                const cur = counters.get(key);
                if (cur) {
                  cur.c[4] += c[4];
                  cur.c[5] += c[5];
                } else counters.set(key, { day: f.day, c: [...c] as Contribution });
              }
            }
            if (ids.length < 1000) break;
          }
          await repo.insertFacts(trx, tenantId, facts);
          await repo.addCounters(trx, tenantId, sortDeltas(counters.values()));
          const stray = previouslyFiled.filter((id) => !facts.some((f) => f.roomId === id));
          if (stray.length) await refreshRooms(trx, tenantId, stray, { flowRuns: true });

          await repo.clearDays(trx, tenantId, day, day, 'online');
          // Records from 90 s before to 90 s after the day: an interval crossing either midnight
          // is paired with its neighbour, and only its piece inside this day counts.
          const online = new Map<string, number>();
          let previous: StatusPoint | null = null;
          for await (const page of repo.statusesBetween(trx, tenantId, new Date(start - ONLINE_WINDOW_MS).toISOString(), new Date(end + ONLINE_WINDOW_MS).toISOString())) {
            for (const point of page) {
              if (previous && previous.userId === point.userId) {
                for (const [pieceDay, ms] of onlinePieces(previous, point.at, zone)) if (pieceDay === day) online.set(point.userId, (online.get(point.userId) ?? 0) + ms);
              }
              previous = point;
            }
          }
          await repo.addCounters(trx, tenantId, sortDeltas([...online].map(([user, ms]) => ({ day, c: ['online', '', user, '', 0, ms] as Contribution }))));
          return n;
        });
        days++;
      }
      return { days, rooms: roomCount };
    },

    /** Every counter of the range (tests compare incremental and rebuilt numbers with it). */
    counters(tenantId: string, fromDay: string, toDay: string) {
      return repo.allCounters(db, tenantId, fromDay, toDay);
    },

    /**
     * `GET /api/dashboard/reports`: the daily documents of 002 §3 for the period, within the
     * viewer's scope, with the names the filters and labels need.
     */
    async dashboard(tenantId: string, viewer: DashboardViewer, query: DashboardQuery) {
      const zone = await zoneOf(db, tenantId);
      const { from, to } = toDayRange(query, zone);
      const { scope, agentFilter, allowedDepartments, allowedAgents } = await scopeOf(tenantId, viewer, query);
      const [rows, dayContacts, agentContacts, channelContacts, names] = await Promise.all([
        repo.daily(db, tenantId, from, to, scope),
        repo.distinctContacts(db, tenantId, from, to, scope, 'contact'),
        repo.distinctContacts(db, tenantId, from, to, scope, 'agentContact'),
        repo.distinctContacts(db, tenantId, from, to, scope, 'channelContact'),
        repo.names(db, tenantId),
      ]);
      return {
        from,
        to,
        timeZone: zone,
        days: documents(from, to, rows, [dayContacts, agentContacts, channelContacts], agentFilter, names),
        // Filters list only what the viewer may choose (seed 002 §6).
        agents: allowedAgents ? names.agents.filter((a) => allowedAgents.includes(a.id)) : names.agents,
        departments: allowedDepartments ? names.departments.filter((d) => allowedDepartments.includes(d.id)) : names.departments,
        channels: names.channels,
        tags: names.tags,
      };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
