import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type ChangesFrame, type SnapshotFrame } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { ONLINE_WINDOW_MS } from '@atendimento/server/services/presence/presence-service';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { RawSocket } from './realtime-helpers';

/**
 * Presence (seed 002 §4) with a manual clock: logon → online; a last status record
 * older than 90 000 ms → offline (the sweeper tells `presence` subscribers; the socket died
 * without logoff); logoff → offline at once. POST /api/users/{id}/status answers
 * `{ data: { status } }`, refuses unknown statuses (400) and other users' ids (403).
 */

let t: TestServer;
const clock = new ManualClock(new Date());
let agentToken: string;
let watcher: RawSocket;

beforeAll(async () => {
  t = await startTestServer({ clock });
  agentToken = await t.tokenFor('acme', 'acme-agente');
  // The supervisor's console: 'Agentes Online' and the agents' status records.
  watcher = new RawSocket(t.baseUrl, t.hosts.acme);
  await watcher.auth(await t.tokenFor('acme', 'acme-supervisor'));
  watcher.send({ type: 'subscribe', id: 'agents', collection: 'presence', query: { filter: { field: 'id', op: 'in', value: ['acme-agente', 'acme-suporte'] } } });
  watcher.send({ type: 'subscribe', id: 'online', collection: 'presence', query: { filter: { field: 'online', op: '==', value: true } } });
  await watcher.frame('snapshot', (f) => f.id === 'agents');
  await watcher.frame('snapshot', (f) => f.id === 'online');
});
afterAll(async () => {
  watcher.close();
  await t.close();
});

function postStatus(userId: string, status: unknown, token = agentToken) {
  return t.api(`/api/users/${userId}/status`, { method: 'POST', token, body: status === undefined ? {} : { status } });
}

/** Presence frames for `sub` that arrived after frame index `from`. */
function presenceFrames(sub: string, from: number): ChangesFrame[] {
  return watcher.frames.slice(from).filter((f): f is ChangesFrame => f.type === 'changes' && f.id === sub);
}

/** What the watcher holds for the agent now, after everything sent so far arrived. */
async function agentAsSeen(): Promise<{ online: boolean; status: string | null }> {
  await t.server.services.changes.idle();
  await t.server.hub.idle();
  await watcher.sync();
  const snapshot = watcher.frames.find((f): f is SnapshotFrame => f.type === 'snapshot' && f.id === 'agents')!;
  let state = snapshot.records.find((r) => r.id === 'acme-agente') as unknown as { online: boolean; status: string | null };
  for (const f of presenceFrames('agents', 0)) {
    const r = f.modified.find((m) => m.id === 'acme-agente');
    if (r) state = r as unknown as typeof state;
  }
  return { online: state.online, status: state.status };
}

async function onlineIds(): Promise<string[]> {
  await agentAsSeen();
  const held = new Set(watcher.frames.find((f): f is SnapshotFrame => f.type === 'snapshot' && f.id === 'online')!.records.map((r) => r.id));
  for (const f of presenceFrames('online', 0)) {
    for (const id of f.removed) held.delete(id);
    for (const r of f.added) held.add(r.id);
  }
  return [...held].sort();
}

describe('presence transitions', () => {
  it('logon → online; heartbeats keep it; a record older than 90 000 ms → offline by the sweeper', async () => {
    expect(await agentAsSeen()).toEqual({ online: false, status: null });

    const logon = await postStatus('acme-agente', 'logon');
    expect(logon.status).toBe(200);
    expect(logon.body).toEqual({ data: { status: 'logon' } });
    expect((await agentAsSeen()).online).toBe(true);
    expect(await onlineIds()).toEqual(['acme-agente']);

    // 1 s later the status bar sends the current status, then every 60 s.
    clock.advance(1_000);
    expect((await postStatus('acme-agente', 'Online')).body).toEqual({ data: { status: 'online' } });
    expect(await agentAsSeen()).toEqual({ online: true, status: 'online' });
    clock.advance(60_000);
    const before = watcher.frames.length;
    expect((await postStatus('acme-agente', 'online')).status).toBe(200);
    await agentAsSeen();
    // A heartbeat that changes nothing visible sends nothing to the lists.
    expect(presenceFrames('agents', before)).toEqual([]);

    // The browser dies without logoff: still online just inside the window...
    clock.advance(ONLINE_WINDOW_MS - 1);
    await t.server.services.presence.sweep();
    expect((await agentAsSeen()).online).toBe(true);
    expect(presenceFrames('agents', before)).toEqual([]);
    // ...and offline once the last record is older than 90 000 ms.
    clock.advance(2);
    await t.server.services.presence.sweep();
    expect(await agentAsSeen()).toEqual({ online: false, status: 'online' });
    expect(presenceFrames('agents', before)).toHaveLength(1);
    expect(await onlineIds()).toEqual([]);
  });

  it('logoff → offline at once, and every record is kept for the reports', async () => {
    const kept = async () => Number((await t.server.db('statuses').where({ tenant_id: 'acme', user_id: 'acme-agente' }).count('* as n').first())!.n);
    const start = await kept();
    expect((await postStatus('acme-agente', 'logon')).status).toBe(200);
    expect((await agentAsSeen()).online).toBe(true);
    clock.advance(5_000);
    expect((await postStatus('acme-agente', 'ausente')).body).toEqual({ data: { status: 'ausente' } });
    expect(await agentAsSeen()).toEqual({ online: true, status: 'ausente' });
    clock.advance(5_000);
    const logoff = await postStatus('acme-agente', 'logoff');
    expect(logoff.body).toEqual({ data: { status: 'logoff' } });
    expect(await agentAsSeen()).toEqual({ online: false, status: 'ausente' });
    expect(await onlineIds()).toEqual([]);
    expect(await kept()).toBe(start + 3);
  });

  it("a heartbeat takes the status chosen on another device; a choice and a sign-in's first beat do not", async () => {
    // A second between records: "the latest record" must not be a tie of one instant.
    const beat = (status: string, extra: Record<string, unknown> = { heartbeat: true }) => {
      clock.advance(1_000);
      return t.api('/api/users/acme-agente/status', { method: 'POST', token: agentToken, body: { status, ...extra } });
    };
    clock.advance(5_000);
    // The phone chooses 'ausente' (a choice, not a heartbeat).
    expect((await beat('ausente', {})).body).toEqual({ data: { status: 'ausente' } });
    // The laptop's tab, left open, beats with what it last knew: the phone's choice wins and is what is recorded.
    const laptop = await beat('online');
    expect(laptop.body).toEqual({ data: { status: 'ausente' } });
    const last = await t.server.db('statuses').where({ tenant_id: 'acme', user_id: 'acme-agente' }).orderBy('created_at', 'desc').orderBy('id', 'desc').first();
    expect(last.status).toBe('ausente');
    expect(await agentAsSeen()).toEqual({ online: true, status: 'ausente' });
    // The laptop's user chooses online: it lands, and the phone's next heartbeat follows it.
    expect((await beat('online', {})).body).toEqual({ data: { status: 'online' } });
    expect((await beat('ausente')).body).toEqual({ data: { status: 'online' } });
    // logon / logoff and a beat without the flag are recorded as sent.
    expect((await beat('ausente', { heartbeat: false })).body).toEqual({ data: { status: 'ausente' } });
    expect((await beat('logoff')).body).toEqual({ data: { status: 'logoff' } });
    expect((await agentAsSeen()).online).toBe(false);
    for (const heartbeat of ['sim', 1, null]) {
      const refused = await beat('online', { heartbeat });
      expect(refused.status, JSON.stringify(heartbeat)).toBe(400);
      expect(refused.body.errorMessage).toContain(messages.realtime.invalidHeartbeat);
    }
  });

  it('answers 400 in pt-BR for a status outside the list, and 403 for another user’s id', async () => {
    for (const body of ['dormindo', '', 42, undefined]) {
      const res = await postStatus('acme-agente', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.errorMessage).toContain(messages.realtime.invalidStatus);
    }
    const other = await postStatus('acme-suporte', 'online');
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: 'forbidden', errorMessage: messages.auth.forbidden });
    // An id that does not exist looks the same to a non-admin: no probing for user ids.
    expect((await postStatus('nao-existe', 'online')).status).toBe(403);
    expect((await t.api('/api/users/acme-agente/status', { method: 'POST', body: { status: 'online' } })).status).toBe(401);
    // An admin may set an agent's status (e.g. put a forgotten session offline).
    const admin = await t.tokenFor('acme', 'acme-admin');
    expect((await postStatus('acme-suporte', 'offline', admin)).body).toEqual({ data: { status: 'offline' } });
    expect((await postStatus('nao-existe', 'offline', admin)).status).toBe(404);
    expect((await agentAsSeen()).online).toBe(false);
  });
});
