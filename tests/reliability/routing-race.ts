import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { hubSignature } from '@atendimento/integrations';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { toJson } from '@atendimento/server/db/knex';
import { channelRow } from '../helpers/rows';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * The routing race (docs/routing.md, docs/bench.md B14): `agents` agents of `departments`
 * departments (half 'Menor carga', half 'Ordem predefinida', roomsPerAgent `cap`), all online;
 * `chats` customers write at once through signed Meta webhooks spread over `processes` server
 * processes on one PostgreSQL schema. When every chat that fits under the caps is assigned,
 * the database is checked: each chat assigned at most once, no agent above the cap, each
 * assignment the one the department's rule picks at its turn, and the chats left queued the
 * last ones to arrive. Used by tests/reliability/routing-race.pg.spec.ts and `npm run bench`.
 */
export interface RaceOptions {
  databaseUrl: string;
  bus: 'pg' | 'redis';
  processes: number;
  agents: number;
  departments: number;
  chats: number;
  cap: number;
  /** Webhooks in flight at once (over all processes). */
  concurrency: number;
  /** Messages (each a new customer) per webhook, as Meta batches them. */
  perWebhook: number;
  /**
   * 'arrival': agents online while the chats arrive (routed as they come); 'drain': agents come
   * online after every chat is queued (the router's own rate, ingest out of the way).
   */
  mode: 'arrival' | 'drain';
  log?: (line: string) => void;
}

export interface RaceResult {
  chats: number;
  assigned: number;
  expectedAssigned: number;
  /** Rooms with more than one agent, or assigned more than once (notes, history). */
  doubleAssigned: string[];
  /** Agents with more open chats than the cap. */
  overCap: { agent: string; n: number }[];
  /** Assignments that are not what the rule picks at that turn (replayed in assignment order). */
  ruleViolations: string[];
  /** Most assigned rooms that arrived after a room left queued, over the departments. */
  maxOvertaken: number;
  ingestSeconds: number;
  routedPerSecond: number;
  /** Assignments per second from the first to the last (drain: the router alone). */
  drainPerSecond: number;
  /** Time from the room's creation (ingest) to its assignment, server side, ms. */
  p50Ms: number;
  p99Ms: number;
  /** Time from the webhook being sent to the assignment, ms. */
  p99FromSendMs: number;
  /** Time from the ingest's acknowledgement (the webhook's 200: the chat is committed) to the assignment, ms (0 when assigned first). */
  p50FromAckMs: number;
  p99FromAckMs: number;
  webhookErrors: number;
}

const APP_SECRET = 'segredo-b14';
const TENANT = 'race';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function seed(options: RaceOptions, schema: string): Promise<{ depts: { id: string; rule: string; agents: string[] }[] }> {
  const config = loadConfig(
    { ...process.env, DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent', BUS: 'memory', SCHEDULER_POLL_MS: '3600000', ROUTING_SWEEP_SECONDS: '0' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: TENANT, staticDir: null },
  );
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } as never });
  try {
    const now = new Date();
    const iso = now.toISOString();
    await server.repos.tenants.create({ id: TENANT, name: 'Corrida', active: true, appConfig: defaultAppConfig(TENANT, 'Corrida') }, ['race.test'], now);
    const perDept = Math.floor(options.agents / options.departments);
    const depts: { id: string; rule: string; agents: string[] }[] = [];
    const users: Record<string, unknown>[] = [];
    for (let d = 0; d < options.departments; d++) {
      const agents = Array.from({ length: perDept }, (_, i) => `a${String(d).padStart(2, '0')}-${String(i).padStart(3, '0')}`);
      const rule = process.env.B14_RULE ?? (d % 2 === 0 ? 'load' : 'predefinedOrder');
      depts.push({ id: `d${d}`, rule, agents });
      for (const id of agents) {
        users.push({ id, tenant_id: TENANT, email: `${id}@race.test`, display_name: `Agente ${id}`, type: 'agent', password_hash: null, active: true, email_verified: true, data: toJson({ claims: {}, status: 'online' }), created_at: iso, updated_at: iso });
      }
    }
    for (let i = 0; i < users.length; i += 200) await server.db('users').insert(users.slice(i, i + 200));
    for (const d of depts) {
      // Predefined order reversed from the id order, so a wrong order shows.
      const ordered = [...d.agents].reverse();
      await server.db('departments').insert({
        id: d.id, tenant_id: TENANT, display_name: `Departamento ${d.id}`, active: true, created_at: iso, updated_at: iso, deleted_at: null,
        data: toJson({ id: d.id, displayName: `Departamento ${d.id}`, active: true, agents: d.agents, supervisors: [], orderedAgents: ordered, agentSelectionRule: d.rule, roomsPerAgent: options.cap }),
      });
      await server.db('department_members').insert(d.agents.map((user_id) => ({ tenant_id: TENANT, department_id: d.id, user_id, role: 'agent' })));
      await server.db('channels').insert(channelRow(TENANT, {
        id: `wa-${d.id}`, type: 'meta', displayName: `WhatsApp ${d.id}`, departmentId: d.id, phoneNumber: '5511999990000',
        provider: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: APP_SECRET, verifyToken: 'b14', accessToken: 'b14', phoneNumberId: `PN-${d.id}`, businessAccountId: 'WABA-B14' },
      }, iso));
    }
    return { depts };
  } finally {
    await server.close();
  }
}

function webhook(deptId: string, customers: { waId: string; wamid: string }[]): Buffer {
  return Buffer.from(JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA-B14', changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: `PN-${deptId}` },
      contacts: customers.map((c) => ({ profile: { name: `Cliente ${c.waId.slice(-5)}` }, wa_id: c.waId })),
      messages: customers.map((c) => ({ from: c.waId, id: c.wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'Olá, preciso de ajuda' } })),
    } }] }],
  }));
}

/** Runs the race; `check` false skips nothing but the processes' cleanup is the caller's choice. */
export async function runRoutingRace(options: RaceOptions): Promise<RaceResult> {
  const log = options.log ?? (() => {});
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const q = (sql: string, params: unknown[] = []) => client.query(sql.replaceAll('§', pg.escapeIdentifier(schema)), params);
  const procs: ServerProcess[] = [];
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  try {
    const { depts } = await seed(options, schema);
    const allAgents = depts.flatMap((d) => d.agents);
    const beat = async () => {
      const at = new Date().toISOString();
      const values = allAgents.map((_, i) => `($${i * 2 + 1}, '${TENANT}', $${i * 2 + 2}, 'online', '${at}')`).join(',');
      await q(`insert into §.statuses (id, tenant_id, user_id, status, created_at) values ${values}`, allAgents.flatMap((id) => [randomUUID(), id]));
    };
    if (options.mode === 'arrival') {
      await beat();
      heartbeat = setInterval(() => void beat().catch(() => {}), 20_000);
    }
    const jwtSecret = randomBytes(32).toString('hex');
    for (let i = 0; i < options.processes; i++) {
      procs.push(await spawnServer({
        // localhost is the default tenant's host: the race tenant (the demo seed then skips).
        DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: schema, BUS: options.bus, JWT_SECRET: jwtSecret, DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error', DEFAULT_TENANT: TENANT,
        // Drain: the safety sweep finds the queues as soon as the agents' heartbeats start.
        ...(options.mode === 'drain' && { ROUTING_SWEEP_SECONDS: '1' }),
      }));
    }
    log(`b14: ${procs.length} processes up (schema ${schema}, BUS=${options.bus})`);

    // Customers, round robin over departments; webhooks round robin over processes.
    const customers = Array.from({ length: options.chats }, (_, i) => ({ dept: depts[i % depts.length]!.id, waId: `55119${String(i).padStart(8, '0')}`, wamid: `wamid.b14-${i}-${randomBytes(3).toString('hex')}` }));
    const batches: { dept: string; list: typeof customers }[] = [];
    for (const d of depts) {
      const mine = customers.filter((c) => c.dept === d.id);
      for (let i = 0; i < mine.length; i += options.perWebhook) batches.push({ dept: d.id, list: mine.slice(i, i + options.perWebhook) });
    }
    batches.sort((a, b) => Number(a.list[0]!.waId) - Number(b.list[0]!.waId));
    const sentAt = new Map<string, number>();
    const ackAt = new Map<string, number>();
    let errors = 0;
    let next = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: options.concurrency }, async (_, lane) => {
      while (next < batches.length) {
        const n = next++;
        const batch = batches[n]!;
        const proc = procs[(n + lane) % procs.length]!;
        const raw = webhook(batch.dept, batch.list);
        const t0 = Date.now();
        for (const c of batch.list) sentAt.set(c.waId, t0);
        try {
          const res = await fetch(`${proc.baseUrl}/api/webhooks/whatsapp/wa-${batch.dept}`, {
            method: 'POST', body: new Uint8Array(raw),
            headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(APP_SECRET, raw) },
          });
          await res.arrayBuffer();
          if (res.status !== 200) errors++;
          const t1 = Date.now();
          for (const c of batch.list) ackAt.set(c.waId, t1);
        } catch {
          errors++;
        }
      }
    }));
    const ingestSeconds = (Date.now() - started) / 1000;
    log(`b14: ${options.chats} chats ingested in ${ingestSeconds.toFixed(1)} s (${errors} webhook errors)`);

    if (options.mode === 'drain') {
      const queued = Number((await q(`select count(*) as n from §.rooms where tenant_id = $1 and active and not in_attend`, [TENANT])).rows[0].n);
      log(`b14: ${queued} chats queued, agents coming online`);
      await beat();
      heartbeat = setInterval(() => void beat().catch(() => {}), 20_000);
    }
    const perDeptChats = new Map(depts.map((d) => [d.id, customers.filter((c) => c.dept === d.id).length]));
    const expectedAssigned = depts.reduce((sum, d) => sum + Math.min(perDeptChats.get(d.id)!, d.agents.length * options.cap), 0);
    const deadline = Date.now() + 120_000;
    let assigned = 0;
    for (;;) {
      assigned = Number((await q(`select count(*) as n from §.room_routing where tenant_id = $1 and assigned_to is not null`, [TENANT])).rows[0].n);
      if (assigned >= expectedAssigned || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Let anything still in flight land before checking.
    await new Promise((r) => setTimeout(r, 1_000));

    const rooms = (await q(`
      select r.id, r.department_id, r.created_at, r.data, rr.assigned_to, rr.assigned_at, rr.assign_seq, rr.queued_at
      from §.rooms r left join §.room_routing rr on rr.tenant_id = r.tenant_id and rr.room_id = r.id
      where r.tenant_id = $1`, [TENANT])).rows as { id: string; department_id: string; created_at: string; data: { agents: { id: string }[]; agentsHistory: { id: string }[]; chatId: string }; assigned_to: string | null; assigned_at: string | null; assign_seq: number | null; queued_at: string | null }[];
    const notes = (await q(`select room_id, count(*)::int as n from §.messages where tenant_id = $1 and author_type = 'system' and annotation group by room_id`, [TENANT])).rows as { room_id: string; n: number }[];
    const notesByRoom = new Map(notes.map((r) => [r.room_id, r.n]));
    const doubleAssigned = rooms.filter((r) => r.data.agents.length > 1 || r.data.agentsHistory.length > 1 || (notesByRoom.get(r.id) ?? 0) > 1).map((r) => r.id);
    const loads = (await q(`
      select rm.member_id as agent, count(*)::int as n from §.room_members rm join §.rooms r on r.id = rm.room_id
      where rm.tenant_id = $1 and rm.kind = 'agent' and r.active group by rm.member_id`, [TENANT])).rows as { agent: string; n: number }[];
    const overCap = loads.filter((l) => l.n > options.cap);

    // Replay each department's assignments in their order (assign_seq, taken under the department's lock).
    const ruleViolations: string[] = [];
    let maxOvertaken = 0;
    for (const d of depts) {
      const mine = rooms.filter((r) => r.department_id === d.id);
      const done = mine.filter((r) => r.assigned_to).sort((a, b) => a.assign_seq! - b.assign_seq!);
      const load = new Map(d.agents.map((a) => [a, 0]));
      const ordered = [...d.agents].reverse();
      for (const r of done) {
        const min = Math.min(...[...load.values()].filter((n) => n < options.cap));
        const chosen = r.assigned_to!;
        if (d.rule === 'load' && load.get(chosen) !== min) ruleViolations.push(`${d.id} #${r.assign_seq}: ${chosen} had ${load.get(chosen)}, minimum ${min}`);
        if (d.rule === 'predefinedOrder' && chosen !== ordered.find((a) => load.get(a)! < options.cap)) ruleViolations.push(`${d.id} #${r.assign_seq}: ${chosen} is not the first under the cap`);
        load.set(chosen, load.get(chosen)! + 1);
      }
      // FIFO up to commit order: how many assigned rooms arrived after a room left in the queue.
      const queuedLeft = mine.filter((r) => !r.assigned_to);
      for (const u of queuedLeft) {
        const at = u.queued_at ?? u.created_at;
        const overtaken = done.filter((a) => (a.queued_at ?? a.created_at) > at).length;
        maxOvertaken = Math.max(maxOvertaken, overtaken);
      }
    }

    const latencies = rooms.filter((r) => r.assigned_at).map((r) => Date.parse(r.assigned_at!) - Date.parse(r.queued_at ?? r.created_at)).sort((a, b) => a - b);
    const fromSend = rooms.filter((r) => r.assigned_at && sentAt.has(r.data.chatId)).map((r) => Date.parse(r.assigned_at!) - sentAt.get(r.data.chatId)!).sort((a, b) => a - b);
    const fromAck = rooms.filter((r) => r.assigned_at && ackAt.has(r.data.chatId)).map((r) => Math.max(0, Date.parse(r.assigned_at!) - ackAt.get(r.data.chatId)!)).sort((a, b) => a - b);
    const firstSend = Math.min(...sentAt.values());
    const assignedTimes = rooms.filter((r) => r.assigned_at).map((r) => Date.parse(r.assigned_at!));
    const lastAssigned = Math.max(...assignedTimes);
    const firstAssigned = Math.min(...assignedTimes);
    return {
      chats: rooms.length,
      assigned: rooms.filter((r) => r.assigned_to).length,
      expectedAssigned,
      doubleAssigned,
      overCap,
      ruleViolations,
      maxOvertaken,
      ingestSeconds,
      routedPerSecond: latencies.length / Math.max(0.001, (lastAssigned - firstSend) / 1000),
      drainPerSecond: latencies.length / Math.max(0.001, (lastAssigned - firstAssigned) / 1000),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      p99FromSendMs: percentile(fromSend, 99),
      p50FromAckMs: percentile(fromAck, 50),
      p99FromAckMs: percentile(fromAck, 99),
      webhookErrors: errors,
    };
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    for (const p of procs) await p.stop().catch(() => {});
    await client.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`).catch(() => {});
    await client.end();
  }
}
