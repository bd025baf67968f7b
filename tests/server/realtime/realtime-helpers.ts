import { waitFor } from '../../helpers/wait-for';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { compareBy, createRealtimeClient, isAdmin, matches, type ChangesFrame, type LiveQueryInput, type RealtimeClient, type ServerFrame, type SnapshotFrame, type WebSocketLike } from '@atendimento/schemas';
import type { AppServer } from '@atendimento/server';
import type { Db } from '@atendimento/server/db/knex';
import { parseJson, toJson } from '@atendimento/server/db/knex';
import type { LiveCollection, LiveRecord } from '@atendimento/server/services/changes/live-collection';
import type { ChangeFeed } from '@atendimento/server/services/changes/change-feed';
import { forbidden } from '@atendimento/server/errors';
import { andFilters, readLiveQuery } from '@atendimento/server/services/presence/live-query-input';

/** The test-only collection: tags with a department, so scoping by membership can be tested. */
export const TEST_COLLECTION = 'test_tags';

export interface TestTag extends LiveRecord {
  name: string;
  department: string;
  note?: string;
  lifeControl: { createdAt: string; updatedAt: string; deletedAt: string | null };
}

function tagFromRow(row: Record<string, unknown>): TestTag {
  const data = parseJson<{ department?: string; note?: string }>(row.data, {});
  return {
    id: String(row.id),
    name: String(row.name),
    department: data.department ?? '',
    ...(data.note !== undefined && { note: data.note }),
    lifeControl: { createdAt: String(row.created_at), updatedAt: String(row.updated_at), deletedAt: (row.deleted_at as string | null) ?? null },
  };
}

/**
 * A small LiveCollection over the `tags` table: admins see every tag, others only tags of the
 * departments they belong to (as agent or supervisor); visitors may not subscribe.
 */
export function testTagsCollection(db: Db): LiveCollection {
  return {
    name: TEST_COLLECTION,
    resolve(_tenant, principal, input) {
      if (principal.kind !== 'user') throw forbidden();
      const q = readLiveQuery(input, { defaultOrder: [{ field: 'name', direction: 'asc' }], defaultLimit: 50, maxLimit: 2000 });
      const scope = isAdmin(principal.user) ? null : { field: 'department', op: 'in' as const, value: [...principal.agentOf, ...principal.supervisorOf] };
      return { filter: andFilters(scope, q.filter), orderBy: q.orderBy, limit: q.limit };
    },
    async snapshot(trx, tenantId, query) {
      const rows = await trx('tags').where('tenant_id', tenantId).whereNull('deleted_at');
      return rows.map(tagFromRow).filter((t) => matches(t, query.filter)).sort(compareBy(query.orderBy)).slice(0, query.limit);
    },
    async load(tenantId, ids) {
      return (await db('tags').where('tenant_id', tenantId).whereIn('id', ids)).map(tagFromRow);
    },
  };
}

/** Writes (creates or replaces) a tag through the change feed, as services do. */
export async function writeTag(changes: ChangeFeed, tenantId: string, tag: { id: string; name: string; department: string; note?: string }, now = new Date()): Promise<void> {
  const iso = now.toISOString();
  await changes.transaction(tenantId, async (trx, record) => {
    const data = toJson({ department: tag.department, ...(tag.note !== undefined && { note: tag.note }) });
    const existing = await trx('tags').where({ tenant_id: tenantId, id: tag.id }).first('id');
    if (existing) await trx('tags').where({ tenant_id: tenantId, id: tag.id }).update({ name: tag.name, data, updated_at: iso, deleted_at: null });
    else await trx('tags').insert({ id: tag.id, tenant_id: tenantId, name: tag.name, data, active: true, created_at: iso, updated_at: iso, deleted_at: null });
    record({ collection: TEST_COLLECTION, id: tag.id, op: 'upsert' });
  });
}

/** Soft-deletes a tag through the change feed. */
export async function deleteTag(changes: ChangeFeed, tenantId: string, id: string, now = new Date()): Promise<void> {
  await changes.transaction(tenantId, async (trx, record) => {
    await trx('tags').where({ tenant_id: tenantId, id }).update({ deleted_at: now.toISOString(), updated_at: now.toISOString() });
    record({ collection: TEST_COLLECTION, id, op: 'delete' });
  });
}

/** What a subscription should hold now, computed straight from the database. */
export async function expectedWindow(server: AppServer, tenantId: string, principalEmail: string, query: LiveQueryInput): Promise<TestTag[]> {
  const collection = testTagsCollection(server.db);
  const tenant = (await server.repos.tenants.findById(tenantId))!;
  const user = (await server.repos.users.findByEmail(tenantId, principalEmail))!;
  const deps = await server.repos.users.departmentsOf(tenantId, user.id);
  const resolved = await collection.resolve(tenant, { kind: 'user', tenantId, sessionId: 'x', user, ...deps }, query);
  return (await server.db.transaction((trx) => collection.snapshot(trx, tenantId, resolved))) as TestTag[];
}

/** A `ws` WebSocket that sends the Host header (the tenant), as browsers do for their page's host. */
export function hostSocket(host: string): new (url: string) => WebSocketLike {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { headers: { host }, perMessageDeflate: false });
    }
  } as unknown as new (url: string) => WebSocketLike;
}

export function wsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/ws`;
}

/** The typed client against a test server, with quick reconnects. */
export function connectClient(baseUrl: string, host: string, getToken: () => string | null | Promise<string | null>, backoff = { initialMs: 20, maxMs: 200 }): RealtimeClient {
  const client = createRealtimeClient({ url: wsUrl(baseUrl), WebSocket: hostSocket(host), getToken, backoff });
  client.connect();
  return client;
}


/** A raw protocol socket: records every frame and the close code, for protocol-level tests. */
export class RawSocket {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  /** `options` go to `ws` (e.g. `autoPong: false` for a peer that stops answering pings). */
  constructor(baseUrl: string, host: string, options: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(wsUrl(baseUrl), { headers: { host }, perMessageDeflate: false, ...options });
    this.ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as ServerFrame));
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    this.ws.on('error', () => {});
    this.opened = new Promise((resolve) => this.ws.once('open', () => resolve()));
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async frame<T extends ServerFrame['type']>(type: T, match: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true, timeoutMs = 10_000): Promise<Extract<ServerFrame, { type: T }>> {
    return waitFor(() => this.frames.find((f) => f.type === type && match(f as Extract<ServerFrame, { type: T }>)) as Extract<ServerFrame, { type: T }> | undefined, `frame ${type}`, timeoutMs);
  }

  /**
   * Waits until every frame the server sent before now has arrived: a pong comes back behind
   * them on the same socket. (Test and server share one event loop; writes on better-sqlite3
   * can finish without the loop ever reading the socket.)
   */
  async sync(): Promise<void> {
    const t = ++RawSocket.pings;
    this.send({ type: 'ping', t });
    await this.frame('pong', (f) => f.t === t);
  }

  private static pings = 0;

  async closedWith(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    return waitFor(() => this.closed, 'close', timeoutMs);
  }

  async auth(token: string): Promise<void> {
    await this.opened;
    this.send({ type: 'auth', token });
    await this.frame('ready');
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * Applies one subscription's frames in order, checking the protocol's promises as it goes:
 * cursors never go back, nothing is added twice, removed or modified without being held.
 * Returns what the client holds at the end.
 */
export function replay(frames: (SnapshotFrame | ChangesFrame)[]): Map<string, unknown> {
  const held = new Map<string, unknown>();
  let cursor = -1;
  for (const f of frames) {
    expect(f.cursor).toBeGreaterThanOrEqual(cursor);
    cursor = f.cursor;
    if (f.type === 'snapshot') {
      held.clear();
      for (const r of f.records) held.set(r.id, r);
      continue;
    }
    for (const id of f.removed) {
      expect(held.has(id), `removed ${id} that was not held`).toBe(true);
      held.delete(id);
    }
    for (const r of f.added) {
      expect(held.has(r.id), `added ${r.id} twice`).toBe(false);
      held.set(r.id, r);
    }
    for (const r of f.modified) {
      expect(held.has(r.id), `modified ${r.id} that was not held`).toBe(true);
      held.set(r.id, r);
    }
  }
  return held;
}
