import type { Knex } from 'knex';
import type { Db, Executor } from '../knex';
import { dialectOf, parseJson } from '../knex';
import { listArg, preparedAll, whereOneOf } from '../prepared';
import { emptyRoomState } from '@atendimento/schemas';
import type { Contribution, RoomFacts, RoomRaw, StatusPoint } from '../../services/reports/report-facts';

type Conn = Executor;

/** A summed counter row of report_daily. */
export interface DailyRow {
  day: string;
  kind: string;
  dept: string;
  key: string;
  sub: string;
  n: number;
  total: number;
}

/** Rows restricted to departments (null: all) and, for per-agent rows without a department, to agents. */
export interface ReportScope {
  departments: string[] | null;
  agents: string[] | null;
}

const ROOM_KINDS_EXCLUDED_FROM_SUMS = ['contact', 'agentContact', 'channelContact'];
const CHUNK = 400;
/** An id no row has: an empty IN list without dialect quirks (PostgreSQL refuses NUL in text). */
const NO_MATCH = '#nenhum#';


/** The columns `roomRaw` reads of a room. */
interface RoomRawRow {
  id: string;
  created_at: string;
  closed_at: string | null;
  internal: unknown;
  channel_id: string | null;
  contact_id: string | null;
  department_id: string | null;
  nps_value: unknown;
  csat_value: unknown;
  data: unknown;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}

/** SQL of the daily reports (docs/reports.md); tenant id first in every call. */
/** The export's reference date when it is a survey's answer date (Room.nps.answerdAt, seed 002 §3 "Room, for export"). */
const EXPORT_REF_PG = { nps: "(data->'nps'->>'answerdAt')", csat: "(data->'csat'->>'answerdAt')" } as const;
const EXPORT_REF_SQLITE = { nps: "json_extract(data, '$.nps.answerdAt')", csat: "json_extract(data, '$.csat.answerdAt')" } as const;
/**
 * What the CSV export reads of a room: its columns and, from its JSON, only the fields the CSV
 * shows (each as JSON text, `x_<field>`). Parsing whole rooms made ~9 KB of garbage per room,
 * and V8 let the heap grow by 200+ MB over an export before collecting it (bench B13d).
 */
const EXPORT_CSV_COLUMNS = ['id', 'room_inc', 'channel', 'channel_id', 'chat_id', 'department_id', 'active', 'created_at', 'nps_value', 'csat_value'] as const;
export const EXPORT_CSV_JSON = ['channelId', 'author', 'agentsHistory', 'tagsNames', 'closedBy', 'nps', 'csat'] as const;

export function createReportRepository(db: Db) {
  // Whether the transfers table of the console operations exists: asked on the
  // caller's connection (inside its transaction: SQLite has one), remembered for a minute.
  let transfersKnown: { value: boolean; until: number } | null = null;
  async function hasTransfers(q: Conn): Promise<boolean> {
    if (transfersKnown && transfersKnown.until > Date.now()) return transfersKnown.value;
    const value = await q.schema.hasTable('room_transfers');
    transfersKnown = { value, until: Date.now() + 60_000 };
    return value;
  }

  const repo = {
    /** One transaction for a rebuild day (the service never holds a Knex handle itself). */
    transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The tenant's time zone (AppConfig.timeZone), if set. */
    async timeZone(q: Conn, tenantId: string): Promise<string | null> {
      const row = await q('tenants').where({ id: tenantId }).first('app_config');
      const zone = parseJson<{ timeZone?: unknown }>(row?.app_config, {}).timeZone;
      return typeof zone === 'string' && zone ? zone : null;
    },

    /** Raw data of rooms as the report facts read it (one statement per table, whatever the count). */
    async roomRaw(q: Conn, tenantId: string, roomIds: string[], options: { lock?: boolean; flowRuns?: boolean } = {}): Promise<RoomRaw[]> {
      if (roomIds.length === 0) return [];
      const out: RoomRaw[] = [];
      const withTransfers = await hasTransfers(q);
      for (let i = 0; i < roomIds.length; i += CHUNK) {
        const ids = roomIds.slice(i, i + CHUNK);
        // PostgreSQL: the room rows are locked (in id order) so two transactions re-filing the
        // same room one after the other each see the other's facts, never both the old ones.
        // Each read is one prepared statement whatever the count (prepared.ts): a new room files
        // its facts in its own transaction, so every new chat ran these through knex's builder.
        const list = listArg(q, ids);
        const lock = Boolean(options.lock) && dialectOf(q) === 'pg';
        const rooms = await preparedAll<RoomRawRow>(q, `reports.roomRaw.rooms:${lock ? 'lock' : ''}`, [tenantId, list], (k, [t, l]) =>
          whereOneOf(k('rooms').where('tenant_id', t as string), k, 'id', l as string)
            .orderBy('id')
            .modify((b) => {
              if (lock) b.forUpdate();
            })
            .select('id', 'created_at', 'closed_at', 'internal', 'channel_id', 'contact_id', 'department_id', 'nps_value', 'csat_value', 'data'));
        const answers = await preparedAll(q, 'reports.roomRaw.answers', [tenantId, list], (k, [t, l]) =>
          whereOneOf(k('messages').where('tenant_id', t as string), k, 'room_id', l as string)
            .andWhere({ author_type: 'agent', annotation: false })
            .whereNotNull('author_id')
            .groupBy('room_id', 'author_id')
            .select('room_id', 'author_id')
            .min({ first: 'created_at' })
            .max({ last: 'created_at' }));
        const tags = await preparedAll(q, 'reports.roomRaw.tags', [tenantId, list], (k, [t, l]) =>
          whereOneOf(k('room_members').where('tenant_id', t as string), k, 'room_id', l as string).andWhere('kind', 'tag').select('room_id', 'member_id'));
        const transfers = withTransfers
          ? await preparedAll(q, 'reports.roomRaw.transfers', [tenantId, list], (k, [t, l]) =>
            whereOneOf(k('room_transfers').where('tenant_id', t as string), k, 'room_id', l as string).select('room_id', 'from_department_id', 'to_department_id', 'from_user_id').orderBy('id'))
          : [];
        const flowRuns = options.flowRuns
          ? await preparedAll(q, 'reports.roomRaw.flowRuns', [tenantId, list], (k, [t, l]) =>
            whereOneOf(k('flow_runs').where('tenant_id', t as string), k, 'room_id', l as string).select('room_id', 'flow_id', 'completed', 'results').orderBy('id'))
          : [];
        const byRoom = <T extends { room_id: string }>(rows: T[]) => {
          const m = new Map<string, T[]>();
          for (const r of rows) {
            const list = m.get(r.room_id);
            if (list) list.push(r);
            else m.set(r.room_id, [r]);
          }
          return m;
        };
        const answersBy = byRoom(answers as { room_id: string; author_id: string; first: string; last: string }[]);
        const tagsBy = byRoom(tags as { room_id: string; member_id: string }[]);
        const flowRunsBy = byRoom(flowRuns as { room_id: string; flow_id: string; completed: unknown; results: unknown }[]);
        const transfersBy = byRoom(transfers as { room_id: string; from_department_id: string | null; to_department_id: string | null; from_user_id: string | null }[]);
        for (const r of rooms) {
          const data = parseJson<Record<string, unknown>>(r.data, {});
          out.push({
            id: r.id,
            createdAt: r.created_at,
            closedAt: r.closed_at ?? null,
            internal: Boolean(r.internal),
            channelId: r.channel_id ?? null,
            contactId: r.contact_id ?? null,
            departmentId: r.department_id ?? null,
            npsValue: r.nps_value === null || r.nps_value === undefined ? null : num(r.nps_value),
            csatValue: r.csat_value === null || r.csat_value === undefined ? null : num(r.csat_value),
            npsRequested: typeof data.npsRequestedAt === 'string' || (data.nps !== null && typeof data.nps === 'object'),
            csatRequested: typeof data.csatRequestedAt === 'string' || (data.csat !== null && typeof data.csat === 'object'),
            agentMessages: (answersBy.get(r.id) ?? []).map((a) => ({ authorId: a.author_id, first: a.first, last: a.last })),
            tags: (tagsBy.get(r.id) ?? []).map((t) => t.member_id),
            transfers: (transfersBy.get(r.id) ?? []).map((t) => ({ fromDepartmentId: t.from_department_id, toDepartmentId: t.to_department_id, fromUserId: t.from_user_id })),
            flowRuns: !options.flowRuns ? undefined : (flowRunsBy.get(r.id) ?? []).map((f) => ({ flowId: f.flow_id, completed: Boolean(f.completed), results: parseJson<Record<string, string>>(f.results, {}) })),
          });
        }
      }
      return out;
    },

    /** Ids of rooms created in [from, to) (ISO instants), in id order after `afterId` (rebuild pages). */
    async roomIdsCreatedBetween(q: Conn, tenantId: string, from: string, to: string, afterId: string, limit: number): Promise<string[]> {
      const rows = await q('rooms').where('tenant_id', tenantId).andWhere('created_at', '>=', from).andWhere('created_at', '<', to).andWhere('id', '>', afterId).orderBy('id').limit(limit).select('id');
      return rows.map((r) => r.id as string);
    },

    /** The facts stored for rooms (what each adds to report_daily now). */
    async facts(q: Conn, tenantId: string, roomIds: string[]): Promise<Map<string, RoomFacts>> {
      const out = new Map<string, RoomFacts>();
      for (let i = 0; i < roomIds.length; i += CHUNK) {
        const rows = await preparedAll<{ room_id: string; day: string; contributions: unknown }>(q, 'reports.facts', [tenantId, listArg(q, roomIds.slice(i, i + CHUNK))], (k, [t, l]) =>
          whereOneOf(k('report_room_facts').where('tenant_id', t as string), k, 'room_id', l as string).select('room_id', 'day', 'contributions'));
        for (const r of rows) out.set(r.room_id, { day: r.day, contributions: parseJson<Contribution[]>(r.contributions, []) });
      }
      return out;
    },

    async saveFacts(q: Conn, tenantId: string, roomId: string, facts: RoomFacts | null): Promise<void> {
      if (!facts) {
        await preparedAll(q, 'reports.deleteFacts', [tenantId, roomId], (k, [t, r]) => k('report_room_facts').where({ tenant_id: t, room_id: r }).del());
        return;
      }
      await preparedAll(q, 'reports.saveFacts', [tenantId, roomId, facts.day, JSON.stringify(facts.contributions)], (k, [t, r, day, c]) => k('report_room_facts')
        .insert({ tenant_id: t, room_id: r, day, contributions: c })
        .onConflict(['tenant_id', 'room_id'])
        .merge(['day', 'contributions']));
    },

    /** Inserts many facts rows at once (rebuild). */
    async insertFacts(q: Conn, tenantId: string, rows: { roomId: string; facts: RoomFacts }[]): Promise<void> {
      const values = rows.map((r) => ({ tenant_id: tenantId, room_id: r.roomId, day: r.facts.day, contributions: JSON.stringify(r.facts.contributions) }));
      for (let i = 0; i < values.length; i += 200) await q('report_room_facts').insert(values.slice(i, i + 200)).onConflict(['tenant_id', 'room_id']).merge(['day', 'contributions']);
    },

    /**
     * Adds deltas to counters, creating missing rows (upsert: two transactions creating the
     * same row never collide). Callers pass them sorted, so concurrent writers lock rows in the
     * same order and never deadlock on PostgreSQL.
     */
    async addCounters(q: Conn, tenantId: string, deltas: { day: string; c: Contribution }[]): Promise<void> {
      for (let i = 0; i < deltas.length; i += 150) {
        const slice = deltas.slice(i, i + 150);
        // One shape per row count (at most 150), each compiled once (prepared.ts).
        await preparedAll(q, `reports.addCounters:${slice.length}`, slice.flatMap(({ day, c }) => [tenantId, day, c[0], c[1], c[2], c[3], c[4], c[5]]), (k, v) => k('report_daily')
          .insert(slice.map((_, r) => ({ tenant_id: v[r * 8], day: v[r * 8 + 1], kind: v[r * 8 + 2], dept: v[r * 8 + 3], key: v[r * 8 + 4], sub: v[r * 8 + 5], n: v[r * 8 + 6], total: v[r * 8 + 7] })))
          .onConflict(['tenant_id', 'day', 'kind', 'dept', 'key', 'sub'])
          .merge({ n: k.raw('report_daily.n + excluded.n'), total: k.raw('report_daily.total + excluded.total') }));
      }
    },

    /** A status record and the one before it of the same agent (userStatus pairs). */
    async statusWithPrevious(q: Conn, tenantId: string, statusId: string): Promise<{ current: StatusPoint; previous: StatusPoint | null } | null> {
      const row = await q('statuses').where({ tenant_id: tenantId, id: statusId }).first('id', 'user_id', 'status', 'created_at');
      if (!row) return null;
      const prev = await q('statuses')
        .where({ tenant_id: tenantId, user_id: row.user_id })
        .andWhere((w) => w.where('created_at', '<', row.created_at).orWhere((x) => x.where('created_at', row.created_at).andWhere('id', '<', row.id)))
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .first('user_id', 'status', 'created_at');
      const point = (r: { user_id: string; status: string; created_at: string }): StatusPoint => ({ userId: r.user_id, status: r.status, at: Date.parse(r.created_at) });
      return { current: point(row), previous: prev ? point(prev) : null };
    },

    /** Status records in [from, to) per agent in time order (the rebuild walks consecutive pairs). */
    async *statusesBetween(q: Conn, tenantId: string, from: string, to: string): AsyncGenerator<StatusPoint[]> {
      let after: { user: string; at: string; id: string } | null = null;
      for (;;) {
        const cursor: { user: string; at: string; id: string } | null = after;
        const rows: { id: string; user_id: string; status: string; created_at: string }[] = await q('statuses')
          .where('tenant_id', tenantId)
          .andWhere('created_at', '>=', from)
          .andWhere('created_at', '<', to)
          .modify((b) => {
            if (cursor) {
              b.andWhere((w) =>
                w
                  .where('user_id', '>', cursor.user)
                  .orWhere((x) => x.where('user_id', cursor.user).andWhere('created_at', '>', cursor.at))
                  .orWhere((x) => x.where('user_id', cursor.user).andWhere('created_at', cursor.at).andWhere('id', '>', cursor.id)),
              );
            }
          })
          .orderBy([{ column: 'user_id' }, { column: 'created_at' }, { column: 'id' }])
          .limit(2000)
          .select('id', 'user_id', 'status', 'created_at');
        if (rows.length === 0) return;
        yield rows.map((r) => ({ userId: r.user_id, status: r.status, at: Date.parse(r.created_at) }));
        const last = rows[rows.length - 1]!;
        after = { user: last.user_id, at: last.created_at, id: last.id };
        if (rows.length < 2000) return;
      }
    },

    /** Clears the days [fromDay, toDay]: room facts filed there and their counters, or the online counters. */
    async clearDays(q: Conn, tenantId: string, fromDay: string, toDay: string, part: 'rooms' | 'online'): Promise<void> {
      const daily = q('report_daily').where('tenant_id', tenantId).andWhere('day', '>=', fromDay).andWhere('day', '<=', toDay);
      if (part === 'online') {
        await daily.andWhere('kind', 'online').del();
        return;
      }
      await daily.andWhereNot('kind', 'online').del();
      await q('report_room_facts').where('tenant_id', tenantId).andWhere('day', '>=', fromDay).andWhere('day', '<=', toDay).del();
    },

    /** Room ids whose facts are filed in [fromDay, toDay] (the rebuild re-files them). */
    async factRoomIds(q: Conn, tenantId: string, fromDay: string, toDay: string): Promise<string[]> {
      const rows = await q('report_room_facts').where('tenant_id', tenantId).andWhere('day', '>=', fromDay).andWhere('day', '<=', toDay).select('room_id');
      return rows.map((r) => r.room_id as string);
    },

    /** Summed counters of [fromDay, toDay] within the scope (distinct-contact kinds apart). */
    async daily(q: Conn, tenantId: string, fromDay: string, toDay: string, scope: ReportScope): Promise<DailyRow[]> {
      const rows = await q('report_daily')
        .where('tenant_id', tenantId)
        .andWhere('day', '>=', fromDay)
        .andWhere('day', '<=', toDay)
        .whereNotIn('kind', ROOM_KINDS_EXCLUDED_FROM_SUMS)
        .modify((b) => scoped(b, scope))
        .groupBy('day', 'kind', 'dept', 'key', 'sub')
        .select('day', 'kind', 'dept', 'key', 'sub')
        .sum({ n: 'n' })
        .sum({ total: 'total' });
      return rows.map((r) => ({ day: r.day, kind: r.kind, dept: r.dept, key: r.key, sub: r.sub, n: num(r.n), total: num(r.total) })).filter((r) => r.n !== 0 || r.total !== 0);
    },

    /**
     * Distinct contacts per day (kind contact), per day and agent (agentContact) or per day
     * and channel (channelContact), within the scope.
     */
    async distinctContacts(q: Conn, tenantId: string, fromDay: string, toDay: string, scope: ReportScope, kind: 'contact' | 'agentContact' | 'channelContact'): Promise<{ day: string; key: string; count: number }[]> {
      const contactColumn = kind === 'contact' ? 'key' : 'sub';
      const rows: { day: string; group_key?: string; count: unknown }[] = await q('report_daily')
        .where('tenant_id', tenantId)
        .andWhere('day', '>=', fromDay)
        .andWhere('day', '<=', toDay)
        .andWhere('kind', kind)
        .andWhere('n', '>', 0)
        .modify((b) => scoped(b, scope))
        .modify((b) => (kind === 'contact' ? b.groupBy('day').select('day', q.raw("'' as ??", ['group_key'])) : b.groupBy('day', 'key').select('day', 'key as group_key')))
        .countDistinct({ count: contactColumn });
      return rows.map((r) => ({ day: r.day, key: r.group_key ?? '', count: num(r.count) }));
    },

    /** Every counter row of the tenant in [fromDay, toDay], sorted (the rebuild test compares them). */
    async allCounters(q: Conn, tenantId: string, fromDay: string, toDay: string): Promise<DailyRow[]> {
      const rows = await q('report_daily')
        .where('tenant_id', tenantId)
        .andWhere('day', '>=', fromDay)
        .andWhere('day', '<=', toDay)
        .andWhere((w) => w.whereNot('n', 0).orWhereNot('total', 0))
        .orderBy(['day', 'kind', 'dept', 'key', 'sub'])
        .select('day', 'kind', 'dept', 'key', 'sub', 'n', 'total');
      return rows.map((r) => ({ day: r.day, kind: r.kind, dept: r.dept, key: r.key, sub: r.sub, n: num(r.n), total: num(r.total) }));
    },

    /** Agents of departments (department_members role agent). */
    async agentsOfDepartments(q: Conn, tenantId: string, departmentIds: string[]): Promise<string[]> {
      if (departmentIds.length === 0) return [];
      const rows = await q('department_members').where('tenant_id', tenantId).whereIn('department_id', departmentIds).andWhere('role', 'agent').distinct('user_id');
      return rows.map((r) => r.user_id as string);
    },

    /** Names for the dashboard's labels and filters. */
    async names(q: Conn, tenantId: string) {
      const [agents, departments, channels, tags, flows] = await Promise.all([
        q('users').where({ tenant_id: tenantId, type: 'agent' }).select('id', 'display_name').orderBy('display_name'),
        q('departments').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'display_name').orderBy('display_name'),
        q('channels').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'display_name'),
        q('tags').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'name', 'data'),
        // Deleted flows too: their runs stay in past days' reports under their name.
        q('documents').where({ tenant_id: tenantId, collection: 'flows' }).select('id', 'data'),
      ]);
      return {
        agents: agents.map((r) => ({ id: r.id as string, displayName: r.display_name as string })),
        departments: departments.map((r) => ({ id: r.id as string, displayName: r.display_name as string })),
        channels: channels.map((r) => ({ id: r.id as string, label: r.display_name as string })),
        tags: tags.map((r) => ({ id: r.id as string, name: r.name as string, color: String(parseJson<Record<string, unknown>>(r.data, {}).color ?? '') })),
        flows: flows.map((r) => {
          const data = parseJson<{ name?: unknown; expectedResult?: { name?: unknown; value?: unknown } | null }>(r.data, {});
          const expected = data.expectedResult;
          const name = typeof expected?.name === 'string' ? expected.name.trim() : '';
          const value = typeof expected?.value === 'string' ? expected.value.trim() : '';
          return { id: r.id as string, name: String(data.name ?? r.id), expectedResult: name && value ? { name, value } : null };
        }),
      };
    },
  };
  return repo;
}

function scoped(b: Knex.QueryBuilder, scope: ReportScope): void {
  if (scope.departments) {
    const departments = scope.departments;
    const agents = scope.agents ?? [];
    // Department rows of the scope; the agents' online time has no department (dept '').
    b.andWhere((w) => w.whereIn('dept', departments.length ? departments : [NO_MATCH]).orWhere((x) => x.where('kind', 'online').whereIn('key', agents.length ? agents : [NO_MATCH])));
  }
}

export type ReportRepository = ReturnType<typeof createReportRepository>;

/**
 * The JSON export's room document, built by the database: what `roomFromRow` gives (defaults
 * of an empty room under the room's JSON, the indexed columns over it, `lifeControl` dates
 * from the columns) without the public token. Parsing and re-serialising ~1.7 KB per room in
 * Node let V8 grow its heap by 125 MB over 100k rooms (bench B13e); text from the database is
 * written as it comes. Only placeholders in the SQL: keys and defaults are bindings.
 * `export-json.spec.ts` compares it with `roomFromRow` room by room on both databases.
 */
const ROOM_DEFAULTS: Record<string, unknown> = { ...emptyRoomState(), channelIdTextit: null, departmentId: null };
const EXPORT_DOC_PG = `(((?::jsonb || (data - 'publicToken')) || jsonb_build_object(
  'id', id, 'roomInc', room_inc, 'chatId', chat_id, 'channel', channel,
  'channelId', coalesce(nullif(data -> 'channelId', 'null'::jsonb), to_jsonb(channel_id)),
  'origin', CASE WHEN jsonb_exists(data, 'origin') THEN data -> 'origin' ELSE to_jsonb(channel) END,
  'destination', destination, 'active', active, 'inAttend', in_attend, 'internal', internal,
  'unreadCount', coalesce(unread_count, 0), 'lastMessageAt', coalesce(last_message_at, created_at),
  'author', coalesce(nullif(data -> 'author', 'null'::jsonb), jsonb_build_object('id', coalesce(contact_id, ''), 'displayName', '', 'photoUrl', null, 'email', null, 'chatId', chat_id, 'phone', null, 'type', 'client')),
  'lifeControl', (CASE WHEN jsonb_typeof(data -> 'lifeControl') = 'object' THEN data -> 'lifeControl' ELSE '{}'::jsonb END) || jsonb_build_object('createdAt', created_at, 'updatedAt', updated_at, 'deletedAt', deleted_at)
)) - 'publicToken')::text as export_doc`;
const EXPORT_DOC_SQLITE_DEFAULTS = Object.keys(ROOM_DEFAULTS).map(() => '?, json(?)').join(', ');
const EXPORT_DOC_SQLITE = ['json_remove(json_set(json_insert(data, ', EXPORT_DOC_SQLITE_DEFAULTS, `, '$.origin', channel),
  '$.id', id, '$.roomInc', room_inc, '$.chatId', chat_id, '$.channel', channel,
  '$.channelId', json(CASE WHEN coalesce(json_type(data, '$.channelId'), 'null') = 'null' THEN json_quote(channel_id) ELSE data -> '$.channelId' END),
  '$.destination', destination, '$.active', json(CASE WHEN active THEN 'true' ELSE 'false' END),
  '$.inAttend', json(CASE WHEN in_attend THEN 'true' ELSE 'false' END), '$.internal', json(CASE WHEN internal THEN 'true' ELSE 'false' END),
  '$.unreadCount', coalesce(unread_count, 0), '$.lastMessageAt', coalesce(last_message_at, created_at),
  '$.author', json(CASE WHEN coalesce(json_type(data, '$.author'), 'null') = 'null'
    THEN json_object('id', coalesce(contact_id, ''), 'displayName', '', 'photoUrl', json('null'), 'email', json('null'), 'chatId', chat_id, 'phone', json('null'), 'type', 'client')
    ELSE data -> '$.author' END),
  '$.lifeControl', json_set(json(CASE WHEN json_type(data, '$.lifeControl') = 'object' THEN data -> '$.lifeControl' ELSE '{}' END), '$.createdAt', created_at, '$.updatedAt', updated_at, '$.deletedAt', deleted_at)
), '$.publicToken') as export_doc`].join('');
const EXPORT_DOC_SQLITE_BINDINGS = Object.entries(ROOM_DEFAULTS).flatMap(([key, value]) => [`$.${key}`, JSON.stringify(value)]);

/** Rooms of an export period by reference date, a page at a time (keyset: never OFFSET). */
export function createExportRepository(db: Db) {
  const selectOf = (shape: 'csv' | 'json', pg: boolean) => {
    if (shape === 'json') return ['id', pg ? db.raw(EXPORT_DOC_PG, [JSON.stringify(ROOM_DEFAULTS)]) : db.raw(EXPORT_DOC_SQLITE, EXPORT_DOC_SQLITE_BINDINGS)];
    return [...EXPORT_CSV_COLUMNS, ...EXPORT_CSV_JSON.map((field) => db.raw(pg ? `(data -> '${field}')::text as ??` : `data -> '$.${field}' as ??`, [`x_${field}`]))];
  };
  return {
    async page(
      tenantId: string,
      query: { from: string; to: string; reference: 'createdAt' | 'nps' | 'csat'; departments: string[] | null },
      after: { at: string; id: string } | null,
      limit: number,
      shape: 'csv' | 'json',
    ): Promise<{ rows: Record<string, unknown>[]; last: { at: string; id: string } | null }> {
      const pg = db.client.config.client === 'pg';
      const path: 'nps' | 'csat' = query.reference === 'nps' ? 'nps' : 'csat';
      // Answer dates live in the room's JSON (Room.nps.answerdAt, seed 002 §3 "Room, for export").
      const ref = db.raw(query.reference === 'createdAt' ? 'created_at' : (pg ? EXPORT_REF_PG : EXPORT_REF_SQLITE)[path]);
      const rows: Record<string, unknown>[] = await db('rooms')
        .where('tenant_id', tenantId)
        .andWhere('internal', false)
        .andWhere(ref, '>=', query.from)
        .andWhere(ref, '<=', query.to)
        .modify((b) => {
          if (query.departments) b.whereIn('department_id', query.departments.length ? query.departments : [NO_MATCH]);
          if (after) b.andWhere((w) => w.where(ref, '>', after.at).orWhere((x) => x.where(ref, '=', after.at).andWhere('id', '>', after.id)));
        })
        .orderByRaw('?, id', [ref])
        .limit(limit)
        .select(...selectOf(shape, pg), db.raw('? as export_ref', [ref]));
      const tail = rows[rows.length - 1];
      const last = tail ? { at: String(tail.export_ref), id: String(tail.id) } : null;
      return { rows, last };
    },
  };
}
