import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeClient, REALTIME_EVENTS, type ChangesFrame, type LiveSubscription, type RealtimeClient, type SnapshotFrame } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { FlakyProxy } from '../server/realtime/flaky-proxy';
import { deleteTag, expectedWindow, hostSocket, replay, TEST_COLLECTION, testTagsCollection, writeTag, wsUrl, type TestTag } from '../server/realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * Resume after a drop: the typed client loses its socket mid-stream while writes go
 * on, reconnects with backoff through a proxy that plays the network, and resumes each
 * subscription from its cursor: the missed changes arrive exactly once, nothing is lost, and
 * a gap older than the retained change log gets a fresh snapshot instead.
 */

let t: TestServer;
let proxy: FlakyProxy;
const clock = new ManualClock(new Date());
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  t = await startTestServer({ clock });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
  proxy = await FlakyProxy.start(t.baseUrl);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  proxy.restore();
});
afterAll(async () => {
  await proxy.close();
  await t.close();
});

const changes = () => t.server.services.changes;

/** Deterministic pseudo-random numbers (the same run every time). */
function seeded(seed: number): (n: number) => number {
  let s = seed;
  // The high bits of the LCG: its low bits repeat with a short period.
  return (n) => Math.floor(((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
}

function client(options: { pingIntervalMs?: number; pongTimeoutMs?: number } = {}): RealtimeClient {
  const rand = seeded(7);
  const c = createRealtimeClient({
    url: wsUrl(proxy.baseUrl),
    WebSocket: hostSocket(t.hosts.acme),
    // A fresh token at every (re)connect, as the console's session does.
    getToken: () => t.tokenFor('acme', 'acme-admin'),
    backoff: { initialMs: 20, maxMs: 200 },
    random: () => rand(1000) / 1000,
    ...options,
  });
  clients.push(c);
  c.connect();
  return c;
}

/** Every frame a subscription received, in order. */
function recordFrames(sub: LiveSubscription): (SnapshotFrame | ChangesFrame)[] {
  const frames: (SnapshotFrame | ChangesFrame)[] = [];
  sub.onUpdate((u) => {
    if (u.kind !== 'error') frames.push(u.frame);
  });
  return frames;
}

const byDepartment = (department: string) => ({ filter: { field: 'department', op: '==' as const, value: department }, limit: 1000 });

/** The client holds exactly what the database says the window is: same ids, same content. */
async function expectInSync(sub: LiveSubscription, department: string): Promise<void> {
  const query = byDepartment(department);
  await waitFor(async () => {
    const expected = await expectedWindow(t.server, 'acme', 'admin@acme.test', query);
    return JSON.stringify(sub.records) === JSON.stringify(expected);
  }, `${department} in sync with the database`);
}

/**
 * Writes to two departments until stopped: new tags, edits, moves between the departments and
 * deletes, one at a time (as users do), so changes keep flowing across the drop.
 */
function startWriter(prefix: string, departments: [string, string]) {
  const rand = seeded(prefix.length * 31 + 1);
  let stopped = false;
  let written = 0;
  let next = 0;
  const ids: string[] = [];
  const done = (async () => {
    while (!stopped) {
      const roll = rand(10);
      if (ids.length < 4 || roll < 4) {
        const id = `${prefix}-${next++}`;
        ids.push(id);
        await writeTag(changes(), 'acme', { id, name: id, department: departments[rand(2)]! }, clock.now());
      } else if (roll < 8) {
        const id = ids[rand(ids.length)]!;
        await writeTag(changes(), 'acme', { id, name: id, department: departments[rand(2)]!, note: `edição ${written}` }, clock.now());
      } else {
        await deleteTag(changes(), 'acme', ids.splice(rand(ids.length), 1)[0]!, clock.now());
      }
      written++;
      // Let the hub deliver between writes (SQLite writes can finish without yielding).
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    get written() {
      return written;
    },
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** What the client held for a subscription when its socket went down. */
function holdingsAtDrop(c: RealtimeClient, subs: LiveSubscription[]) {
  const at: { cursor: number; ids: Set<string> }[] = [];
  const off = c.on(REALTIME_EVENTS.closed, () => {
    if (at.length) return;
    for (const s of subs) at.push({ cursor: s.set.cursor!, ids: new Set(s.set.ids()) });
    off();
  });
  return at;
}

describe('resume after a dropped socket', () => {
  it('replays to each subscription exactly the changes it missed while the network was cut', async () => {
    const c = client();
    const a = c.subscribe<TestTag>(TEST_COLLECTION, byDepartment('cut-a'));
    const b = c.subscribe<TestTag>(TEST_COLLECTION, byDepartment('cut-b'));
    const framesA = recordFrames(a);
    const framesB = recordFrames(b);
    await waitFor(() => a.state === 'live' && b.state === 'live', 'both snapshots');
    const atDrop = holdingsAtDrop(c, [a, b]);

    const writer = startWriter('cut', ['cut-a', 'cut-b']);
    await waitFor(() => writer.written >= 30 && framesA.length > 3 && framesB.length > 3, 'changes flowing');
    // Mid-stream: the writer keeps going while the network is down.
    proxy.cut();
    await waitFor(() => atDrop.length === 2, 'client noticed the drop');
    const writtenAtCut = writer.written;
    await waitFor(() => writer.written >= writtenAtCut + 40, 'writes while down');
    expect(c.state).not.toBe('ready');
    await writer.stop();
    const accepted = proxy.accepted;
    proxy.restore();

    await expectInSync(a, 'cut-a');
    await expectInSync(b, 'cut-b');
    expect(proxy.accepted).toBe(accepted + 1); // one reconnect, after the refused attempts

    const latest = await changes().latestSeq('acme');
    const gap = await changes().since('acme', Math.min(atDrop[0]!.cursor, atDrop[1]!.cursor), 10_000);
    for (const [sub, frames, department, held] of [
      [a, framesA, 'cut-a', atDrop[0]!],
      [b, framesB, 'cut-b', atDrop[1]!],
    ] as const) {
      // One snapshot only: the reconnect resumed instead of reloading.
      expect(frames.filter((f) => f.type === 'snapshot')).toHaveLength(1);
      // Nothing twice, nothing removed that was not there, cursors only move forward.
      const final = replay(frames);
      expect(JSON.stringify([...final.values()].sort((x, y) => ((x as TestTag).name < (y as TestTag).name ? -1 : 1)))).toBe(JSON.stringify(sub.records));

      const resumed = frames.filter((f): f is ChangesFrame => f.type === 'changes' && f.resumed === true);
      expect(resumed).toHaveLength(1);
      const frame = resumed[0]!;
      expect(frame.cursor).toBe(latest);
      expect(frames.indexOf(frame)).toBe(frames.length - 1); // nothing after it: the writer had stopped

      // Exactly the missed changes: every tag touched after the client's cursor, as it is now.
      const now = new Map((await expectedWindow(t.server, 'acme', 'admin@acme.test', byDepartment(department))).map((r) => [r.id, r]));
      const touched = new Set(gap.filter((e) => e.seq > held.cursor && e.collection === TEST_COLLECTION).map((e) => e.id));
      expect(touched.size).toBeGreaterThan(0);
      const expectedAdded = [...touched].filter((id) => now.has(id) && !held.ids.has(id)).sort();
      const expectedModified = [...touched].filter((id) => now.has(id) && held.ids.has(id)).sort();
      const expectedRemoved = [...touched].filter((id) => !now.has(id) && held.ids.has(id)).sort();
      expect(frame.added.map((r) => r.id).sort()).toEqual(expectedAdded);
      expect(frame.modified.map((r) => r.id).sort()).toEqual(expectedModified);
      expect([...frame.removed].sort()).toEqual(expectedRemoved);
      expect(expectedAdded.length + expectedModified.length + expectedRemoved.length).toBeGreaterThan(0);
      for (const r of [...frame.added, ...frame.modified]) expect(r).toEqual(now.get(r.id));
    }
  });

  it('notices a silent network (no reset, nothing arrives) by its heartbeat, then resumes', async () => {
    const c = client({ pingIntervalMs: 100, pongTimeoutMs: 300 });
    const a = c.subscribe<TestTag>(TEST_COLLECTION, byDepartment('frozen-a'));
    const frames = recordFrames(a);
    await waitFor(() => a.state === 'live', 'snapshot');
    const atDrop = holdingsAtDrop(c, [a]);
    const writer = startWriter('frozen', ['frozen-a', 'frozen-b']);
    await waitFor(() => frames.length > 3, 'changes flowing');
    // Like a laptop lid closing: the TCP connection stays open, nothing gets through.
    proxy.freeze();
    await waitFor(() => atDrop.length === 1, 'client gave up on the silent socket', 5_000);
    const writtenAtFreeze = writer.written;
    await waitFor(() => writer.written >= writtenAtFreeze + 20, 'writes while frozen');
    await writer.stop();
    proxy.restore();
    await expectInSync(a, 'frozen-a');
    expect(frames.filter((f) => f.type === 'snapshot')).toHaveLength(1);
    expect(frames.filter((f) => f.type === 'changes' && f.resumed)).toHaveLength(1);
    replay(frames);
  });

  it('sends a fresh snapshot when the gap is older than the retained change log', async () => {
    const c = client();
    const a = c.subscribe<TestTag>(TEST_COLLECTION, byDepartment('old-a'));
    const frames = recordFrames(a);
    await waitFor(() => a.state === 'live', 'snapshot');
    await writeTag(changes(), 'acme', { id: 'old-1', name: 'old-1', department: 'old-a' }, clock.now());
    await waitFor(() => a.records.some((r) => r.id === 'old-1'), 'old-1 live');
    const atDrop = holdingsAtDrop(c, [a]);

    proxy.cut();
    await waitFor(() => atDrop.length === 1, 'client noticed the drop');
    await writeTag(changes(), 'acme', { id: 'old-2', name: 'old-2', department: 'old-a' }, clock.now());
    await deleteTag(changes(), 'acme', 'old-1', clock.now());
    // The client stays away past the retention: the log no longer covers its cursor.
    clock.advance((t.server.config.changeLogRetentionHours + 1) * 3_600_000);
    expect(await t.server.services.pruner.pruneNow()).toBeGreaterThan(0);
    await writeTag(changes(), 'acme', { id: 'old-3', name: 'old-3', department: 'old-a' }, clock.now());
    expect((await changes().since('acme', atDrop[0]!.cursor, 1))[0]!.seq).toBeGreaterThan(atDrop[0]!.cursor + 1);
    proxy.restore();

    await waitFor(() => frames.filter((f) => f.type === 'snapshot').length === 2, 'fresh snapshot');
    await expectInSync(a, 'old-a');
    expect(a.records.map((r) => r.id)).toEqual(['old-2', 'old-3']);
    const snapshot = frames.filter((f): f is SnapshotFrame => f.type === 'snapshot')[1]!;
    expect(snapshot.cursor).toBe(await changes().latestSeq('acme'));
    expect(frames.filter((f) => f.type === 'changes' && f.resumed)).toEqual([]);
    replay(frames);
  });
});
