import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesFrame, LiveQueryInput, SnapshotFrame } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { connectClient, deleteTag, expectedWindow, RawSocket, replay, TEST_COLLECTION, testTagsCollection, writeTag, type TestTag } from './realtime-helpers';
import { waitFor } from '../../helpers/wait-for';

let t: TestServer;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const changes = () => t.server.services.changes;
const settle = async () => {
  await changes().idle();
  await t.server.hub.idle();
};

async function socketAs(userId: string): Promise<RawSocket> {
  const s = new RawSocket(t.baseUrl, t.hosts.acme);
  sockets.push(s);
  await s.auth(await t.tokenFor('acme', userId));
  return s;
}

function framesOf(s: RawSocket, id: string) {
  return s.frames.filter((f): f is SnapshotFrame | ChangesFrame => (f.type === 'snapshot' || f.type === 'changes') && f.id === id);
}

describe('snapshot then changes', () => {
  it('sends the window in order, then added / modified / removed in seq order, evicting and refilling the tail', async () => {
    for (const [id, name] of [['o-b', 'b'], ['o-d', 'd'], ['o-f', 'f'], ['o-h', 'h']] as const) {
      await writeTag(changes(), 'acme', { id, name, department: 'ordem' });
    }
    const s = await socketAs('acme-admin');
    const query = { filter: { field: 'department', op: '==', value: 'ordem' }, limit: 3 } satisfies LiveQueryInput;
    s.send({ type: 'subscribe', id: 'w', collection: TEST_COLLECTION, query });
    const snapshot = await s.frame('snapshot');
    expect(snapshot.records.map((r) => r.name)).toEqual(['b', 'd', 'f']);
    expect(snapshot.orderBy).toEqual([{ field: 'name', direction: 'asc' }]);
    expect(snapshot.limit).toBe(3);

    // 'a' enters at the head: the tail 'f' is evicted in the same frame.
    await writeTag(changes(), 'acme', { id: 'o-a', name: 'a', department: 'ordem' });
    const first = await s.frame('changes', (f) => f.id === 'w');
    expect(first.added.map((r) => r.id)).toEqual(['o-a']);
    expect(first.removed).toEqual(['o-f']);
    expect(first.cursor).toBeGreaterThan(snapshot.cursor);

    // 'z' falls past the tail: nothing is sent for it.
    await writeTag(changes(), 'acme', { id: 'o-z', name: 'z', department: 'ordem' });
    // A change inside the window is a modification.
    await writeTag(changes(), 'acme', { id: 'o-b', name: 'b', department: 'ordem', note: 'editada' });
    const second = await s.frame('changes', (f) => f.id === 'w' && f.modified.length > 0);
    expect(second.modified.map((r) => [r.id, r.note])).toEqual([['o-b', 'editada']]);
    expect(second.added).toEqual([]);

    // Deleting from a full window pulls the next record ('f') back in.
    await deleteTag(changes(), 'acme', 'o-a');
    const third = await s.frame('changes', (f) => f.id === 'w' && f.removed.includes('o-a'));
    expect(third.added.map((r) => r.id)).toEqual(['o-f']);

    // Renaming 'd' to 'y' moves it past 'f' and 'h': the window becomes b, f, h.
    await writeTag(changes(), 'acme', { id: 'o-d', name: 'y', department: 'ordem' });
    await settle();
    await s.sync();
    const held = replay(framesOf(s, 'w'));
    const expected = await expectedWindow(t.server, 'acme', 'admin@acme.test', query);
    expect([...held.values()].map((r) => (r as TestTag).name).sort()).toEqual(['b', 'f', 'h']);
    expect(expected.map((r) => r.name)).toEqual(['b', 'f', 'h']);
    const cursors = framesOf(s, 'w').map((f) => f.cursor);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  });

  it('stops sending after unsubscribe and replaces a subscription re-sent with the same id', async () => {
    const s = await socketAs('acme-admin');
    s.send({ type: 'subscribe', id: 'u', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'unsub' } } });
    await s.frame('snapshot', (f) => f.id === 'u');
    s.send({ type: 'subscribe', id: 'u', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'outro-unsub' } } });
    await waitFor(() => s.frames.filter((f) => f.type === 'snapshot' && f.id === 'u').length === 2, 'second snapshot');
    await writeTag(changes(), 'acme', { id: 'unsub-1', name: 'x', department: 'unsub' });
    await writeTag(changes(), 'acme', { id: 'unsub-2', name: 'y', department: 'outro-unsub' });
    const got = await s.frame('changes', (f) => f.id === 'u');
    expect(got.added.map((r) => r.id)).toEqual(['unsub-2']);
    s.send({ type: 'unsubscribe', id: 'u' });
    await waitFor(async () => (await t.server.hub.idle(), true), 'idle');
    const before = s.frames.length;
    s.send({ type: 'ping' });
    await s.frame('pong');
    await writeTag(changes(), 'acme', { id: 'unsub-3', name: 'z', department: 'outro-unsub' });
    await settle();
    await s.sync();
    expect(s.frames.slice(before).filter((f) => f.type === 'changes')).toEqual([]);
  });

  it('keeps a window equal to the database through random inserts, edits, moves and deletes', async () => {
    const s = await socketAs('acme-admin');
    const query = { filter: { field: 'department', op: 'in', value: ['rnd-a', 'rnd-b'] }, orderBy: [{ field: 'note', direction: 'desc' }], limit: 7 } satisfies LiveQueryInput;
    s.send({ type: 'subscribe', id: 'r', collection: TEST_COLLECTION, query });
    await s.frame('snapshot', (f) => f.id === 'r');
    let seed = 12345;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    const departments = ['rnd-a', 'rnd-b', 'rnd-c'];
    const op = () => {
      const id = `rnd-${rand(25)}`;
      if (rand(6) === 0) return deleteTag(changes(), 'acme', id);
      return writeTag(changes(), 'acme', { id, name: id, department: departments[rand(3)]!, note: String(rand(40)).padStart(2, '0') });
    };
    // One at a time, then ten at once (so batches carry several changes, some to one record).
    for (let i = 0; i < 100; i++) await op();
    for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: 10 }, op));
    await settle();
    await s.sync();
    const held = replay(framesOf(s, 'r'));
    const expected = await expectedWindow(t.server, 'acme', 'admin@acme.test', query);
    expect(new Map([...held].map(([id, r]) => [id, (r as TestTag).note]))).toEqual(new Map(expected.map((r) => [r.id, r.note])));
  });
});

describe('permission filtering', () => {
  it('never sends an agent a record of another department, whatever the client asks', async () => {
    const agent = await socketAs('acme-agente'); // agent of vendas
    const admin = await socketAs('acme-admin');
    agent.send({ type: 'subscribe', id: 'mine', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: 'in', value: ['perm-vendas', 'vendas', 'suporte'] } } });
    // Trying to widen: asks for suporte only. The server ANDs the agent's scope, so it is empty.
    agent.send({ type: 'subscribe', id: 'widen', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'suporte' } } });
    admin.send({ type: 'subscribe', id: 'all', collection: TEST_COLLECTION, query: { filter: { field: 'name', op: '==', value: 'perm' } } });
    await agent.frame('snapshot', (f) => f.id === 'mine');
    expect((await agent.frame('snapshot', (f) => f.id === 'widen')).records).toEqual([]);
    await admin.frame('snapshot', (f) => f.id === 'all');

    await writeTag(changes(), 'acme', { id: 'perm-suporte', name: 'perm', department: 'suporte' });
    await writeTag(changes(), 'acme', { id: 'perm-vendas', name: 'perm', department: 'vendas' });
    await waitFor(() => admin.frames.some((f) => f.type === 'changes' && f.added.some((r) => r.id === 'perm-vendas')), 'admin sees vendas');
    await agent.frame('changes', (f) => f.id === 'mine' && f.added.some((r) => r.id === 'perm-vendas'));

    // Moving the vendas tag to suporte removes it from the agent's window.
    await writeTag(changes(), 'acme', { id: 'perm-vendas', name: 'perm', department: 'suporte' });
    await agent.frame('changes', (f) => f.id === 'mine' && f.removed.includes('perm-vendas'));
    await settle();
    await Promise.all([agent.sync(), admin.sync()]);

    const everything = JSON.stringify(agent.frames);
    expect(everything).not.toContain('perm-suporte');
    expect(agent.frames.filter((f) => f.type === 'changes' && f.id === 'widen')).toEqual([]);
    const adminIds = admin.frames.flatMap((f) => (f.type === 'changes' ? f.added.map((r) => r.id) : []));
    expect(adminIds).toEqual(expect.arrayContaining(['perm-suporte', 'perm-vendas']));
  });

  it('does not let a resuming client keep records it claims to hold but may not see', async () => {
    await writeTag(changes(), 'acme', { id: 'claim-suporte', name: 'claim', department: 'suporte' });
    await writeTag(changes(), 'acme', { id: 'claim-vendas', name: 'claim', department: 'vendas' });
    const cursor = await changes().latestSeq('acme');
    const agent = await socketAs('acme-agente');
    agent.send({ type: 'subscribe', id: 'c', collection: TEST_COLLECTION, query: { filter: { field: 'name', op: '==', value: 'claim' } }, cursor, ids: ['claim-suporte', 'claim-vendas'] });
    const resumed = await agent.frame('changes', (f) => f.id === 'c');
    expect(resumed.resumed).toBe(true);
    expect(resumed.removed).toEqual(['claim-suporte']);
    expect(JSON.stringify(resumed)).not.toContain('"department":"suporte"');
  });

  it('fans one change out to many sockets as identical frames, and nothing to another tenant', async () => {
    const outra = new RawSocket(t.baseUrl, t.hosts.outra);
    sockets.push(outra);
    await outra.auth(await t.tokenFor('outra', 'outra-admin'));
    outra.send({ type: 'subscribe', id: 'tags', collection: TEST_COLLECTION });
    await outra.frame('snapshot');
    const many = await Promise.all(Array.from({ length: 5 }, () => socketAs('acme-admin')));
    for (const s of many) s.send({ type: 'subscribe', id: 'same', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'fanout' } } });
    await Promise.all(many.map((s) => s.frame('snapshot', (f) => f.id === 'same')));
    await writeTag(changes(), 'acme', { id: 'fanout-1', name: 'f', department: 'fanout' });
    const got = await Promise.all(many.map((s) => s.frame('changes', (f) => f.id === 'same')));
    expect(new Set(got.map((f) => JSON.stringify(f))).size).toBe(1);
    await settle();
    await outra.sync();
    expect(outra.frames.filter((f) => f.type === 'changes')).toEqual([]);
  });
});

describe('shared windows (fan-out)', () => {
  it('applies a change once per group of identical queries and scopes, keeping ids, scope, tenant and late joiners apart', async () => {
    const query = { filter: { field: 'department', op: 'in', value: ['grp', 'vendas'] } } satisfies LiveQueryInput;
    const base = t.server.hub.stats();
    const admins = await Promise.all(Array.from({ length: 4 }, () => socketAs('acme-admin')));
    const agent = await socketAs('acme-agente'); // agent of vendas: same query, narrower scope
    const outra = new RawSocket(t.baseUrl, t.hosts.outra);
    sockets.push(outra);
    await outra.auth(await t.tokenFor('outra', 'outra-admin'));
    admins.forEach((s, i) => s.send({ type: 'subscribe', id: i === 3 ? 'other-id' : 'g', collection: TEST_COLLECTION, query }));
    agent.send({ type: 'subscribe', id: 'g', collection: TEST_COLLECTION, query });
    outra.send({ type: 'subscribe', id: 'g', collection: TEST_COLLECTION, query });
    await Promise.all([...admins, agent, outra].map((s) => s.frame('snapshot')));
    await settle();
    // Admins of acme share one window; the agent (other scope) and outra (other tenant) do not.
    expect(t.server.hub.stats().groups - base.groups).toBe(3);
    expect(t.server.hub.stats().subscriptions - base.subscriptions).toBe(6);

    await writeTag(changes(), 'acme', { id: 'grp-1', name: 'grp-1', department: 'grp' });
    await writeTag(changes(), 'acme', { id: 'grp-2', name: 'grp-2', department: 'vendas' });
    await settle();
    await Promise.all([...admins, agent, outra].map((s) => s.sync()));
    const added = (s: RawSocket) => s.frames.flatMap((f) => (f.type === 'changes' ? f.added.map((r) => r.id) : []));
    for (const s of admins) expect(added(s)).toEqual(['grp-1', 'grp-2']);
    expect(admins[3]!.frames.filter((f) => f.type === 'changes').every((f) => f.type === 'changes' && f.id === 'other-id')).toBe(true);
    expect(added(agent)).toEqual(['grp-2']);
    expect(JSON.stringify(agent.frames)).not.toContain('grp-1');
    expect(outra.frames.filter((f) => f.type === 'changes')).toEqual([]);

    // A late joiner (fresh snapshot) and a resuming client land in the same state: they join.
    const late = await socketAs('acme-admin');
    late.send({ type: 'subscribe', id: 'g', collection: TEST_COLLECTION, query });
    expect((await late.frame('snapshot')).records.map((r) => r.id).filter((id) => id.startsWith('grp-'))).toEqual(['grp-1', 'grp-2']);
    const resumer = await socketAs('acme-admin');
    // It held what the admins' snapshot had, and missed both writes.
    const held = admins[0]!.frames.find((f): f is SnapshotFrame => f.type === 'snapshot')!;
    resumer.send({ type: 'subscribe', id: 'g', collection: TEST_COLLECTION, query, cursor: held.cursor, ids: held.records.map((r) => r.id) });
    const resumed = await resumer.frame('changes', (f) => f.resumed === true);
    expect(resumed.added.map((r) => r.id)).toEqual(['grp-1', 'grp-2']);
    await settle();
    expect(t.server.hub.stats().groups - base.groups).toBe(3);

    // A member leaving does not disturb the others; the group lives while it has members.
    admins[0]!.send({ type: 'unsubscribe', id: 'g' });
    await admins[0]!.sync();
    await writeTag(changes(), 'acme', { id: 'grp-1', name: 'grp-1', department: 'suporte' });
    await settle();
    await Promise.all([...admins, agent, late, resumer].map((s) => s.sync()));
    for (const s of [...admins.slice(1), late, resumer]) {
      expect(s.frames.filter((f) => f.type === 'changes' && f.removed.includes('grp-1'))).toHaveLength(1);
    }
    expect(admins[0]!.frames.filter((f) => f.type === 'changes' && f.removed.includes('grp-1'))).toEqual([]);
    expect(agent.frames.filter((f) => f.type === 'changes' && f.removed.length > 0)).toEqual([]);
    for (const s of [...admins.slice(1), late, resumer]) {
      expect([...replay(framesOf(s, s === admins[3] ? 'other-id' : 'g')).keys()].filter((id) => id.startsWith('grp-'))).toEqual(['grp-2']);
    }
    for (const s of [...admins, late, resumer]) s.close();
    await waitFor(() => t.server.hub.stats().groups - base.groups === 2, 'the admins\' group freed');
  });
});

describe('growing a window (resume with full)', () => {
  const names = (records: { id: string }[]) => records.map((r) => r.id).sort();

  it('sends only what lies past the held records when a full window asks a higher limit, with what changed meanwhile', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) await writeTag(changes(), 'acme', { id: `grow-${name}`, name, department: 'cresce' });
    const s = await socketAs('acme-admin');
    const filter = { field: 'department', op: '==', value: 'cresce' } as const;
    s.send({ type: 'subscribe', id: 'w3', collection: TEST_COLLECTION, query: { filter, limit: 3 } });
    const snapshot = await s.frame('snapshot', (f) => f.id === 'w3');
    expect(snapshot.records.map((r) => r.id)).toEqual(['grow-a', 'grow-b', 'grow-c']);
    s.send({ type: 'unsubscribe', id: 'w3' });
    // Meanwhile one held record changes and a new one enters the window's head.
    await writeTag(changes(), 'acme', { id: 'grow-b', name: 'b', department: 'cresce', note: 'editada' });
    await writeTag(changes(), 'acme', { id: 'grow-aa', name: 'aa', department: 'cresce' });

    s.send({ type: 'subscribe', id: 'w5', collection: TEST_COLLECTION, query: { filter, limit: 5 }, cursor: snapshot.cursor, ids: snapshot.records.map((r) => r.id), full: true });
    const grown = await s.frame('changes', (f) => f.id === 'w5');
    expect(grown.resumed).toBe(true);
    expect(names(grown.added)).toEqual(['grow-aa', 'grow-d']);
    expect(names(grown.modified)).toEqual(['grow-b']);
    expect(grown.removed).toEqual([]);
    expect(s.frames.some((f) => f.type === 'snapshot' && f.id === 'w5')).toBe(false);
    // What the client holds is the window of limit 5, and it stays live.
    const held = replay([snapshot, grown]);
    expect([...held.keys()].sort()).toEqual(['grow-a', 'grow-aa', 'grow-b', 'grow-c', 'grow-d']);
    await writeTag(changes(), 'acme', { id: 'grow-d', name: 'd', department: 'cresce', note: 'viva' });
    const next = await s.frame('changes', (f) => f.id === 'w5' && f.modified.some((r) => r.id === 'grow-d'));
    expect(next.resumed).toBeUndefined();
  });

  it("the typed client's subscribe({ from }) starts from the held records and receives only the rest", async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await writeTag(changes(), 'acme', { id: `from-${name}`, name, department: 'origem' });
    const token = await t.tokenFor('acme', 'acme-admin');
    const client = connectClient(t.baseUrl, t.hosts.acme, () => token);
    try {
      const filter = { field: 'department', op: '==', value: 'origem' } as const;
      const small = client.subscribe<TestTag>(TEST_COLLECTION, { filter, limit: 2 });
      await waitFor(() => small.state === 'live' || null, 'first window');
      small.close();
      const big = client.subscribe<TestTag>(TEST_COLLECTION, { filter, limit: 4 }, { from: small });
      // The held records are there at once; the server's answer adds the rest.
      expect(big.records.map((r) => r.id)).toEqual(['from-a', 'from-b']);
      const updates: { kind: string; resumed?: boolean; added: string[] }[] = [];
      big.onUpdate((u) => updates.push({ kind: u.kind, resumed: (u.frame as ChangesFrame).resumed, added: u.kind === 'changes' ? u.frame.added.map((r) => r.id) : [] }));
      await waitFor(() => updates[0] ?? null, 'the grown window');
      expect(updates[0]).toEqual({ kind: 'changes', resumed: true, added: ['from-c', 'from-d'] });
      expect(big.records.map((r) => r.id)).toEqual(['from-a', 'from-b', 'from-c', 'from-d']);
    } finally {
      client.close();
    }
  });
});

describe('cleanup', () => {
  it('forgets a subscription whose socket closes while its resume is still being read', async () => {
    // A collection whose loads wait for the test: the socket closes in the middle of a resume.
    let release: () => void = () => {};
    let waiting = false;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const base = testTagsCollection(t.server.db);
    t.server.hub.registerCollection({
      ...base,
      name: 'gated_tags',
      async load(tenantId, ids) {
        waiting = true;
        await gate;
        return base.load(tenantId, ids);
      },
    });
    await writeTag(changes(), 'acme', { id: 'gated-1', name: 'gated', department: 'gated' });
    await settle();
    const before = t.server.hub.stats();
    const s = await socketAs('acme-admin');
    s.send({ type: 'subscribe', id: 'g', collection: 'gated_tags', cursor: await changes().latestSeq('acme'), ids: ['gated-1'] });
    await waitFor(() => waiting, 'resume reading');
    s.close();
    await waitFor(() => t.server.hub.stats().connections === before.connections, 'socket closed on the server');
    release();
    await settle();
    expect(t.server.hub.stats().subscriptions).toBe(before.subscriptions);
  });
});
