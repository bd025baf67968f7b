import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { encodeNote, type ChangeBus } from '@atendimento/server/services/changes/change-bus';
import { createChangeFeed, type ChangeFeed } from '@atendimento/server/services/changes/change-feed';
import { busNamespace } from '@atendimento/server/services/changes/create-bus';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { RawSocket, TEST_COLLECTION, testTagsCollection, writeTag } from '../server/realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * BUS=pg losing its LISTEN connection (PostgreSQL restart, idle-connection killer): notes sent
 * meanwhile are gone, so after reconnecting the process re-reads the change log and its
 * subscribers still get every write. Writes come from "another process": a second change
 * feed on the same database that only NOTIFYs, so the server learns of them by the bus alone.
 */

let t: TestServer;
let other: ChangeFeed;
let channel: string;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ env: { BUS: 'pg' } });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
  channel = `atendimento_changes_${busNamespace(t.server.config)}`;
  const notifyOnly: ChangeBus = {
    publish: async (note) => void (await t.server.db.raw('select pg_notify(?, ?)', [channel, encodeNote(note)])),
    subscribe: () => () => {},
    close: async () => {},
  };
  other = createChangeFeed({ db: t.server.db, bus: notifyOnly, clock: systemClock, logger: createLogger('silent') });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  other.close();
  await t.close();
});

/** Backend pids of connections LISTENing on this server's channel. */
async function listeners(): Promise<number[]> {
  const { rows } = await t.server.db.raw('select pid from pg_stat_activity where query = ?', [`LISTEN "${channel}"`]);
  return (rows as { pid: number }[]).map((r) => r.pid);
}

describe('BUS=pg reconnect', () => {
  it('delivers a write whose NOTIFY was lost while the LISTEN connection was down', async () => {
    const s = new RawSocket(t.baseUrl, t.hosts.acme);
    sockets.push(s);
    await s.auth(await t.tokenFor('acme', 'acme-admin'));
    s.send({ type: 'subscribe', id: 'tags', collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'bus' } } });
    await s.frame('snapshot');

    await writeTag(other, 'acme', { id: 'bus-1', name: 'antes', department: 'bus' });
    await s.frame('changes', (f) => f.added.some((r) => r.id === 'bus-1'));

    const [pid, ...more] = await listeners();
    expect(more).toEqual([]);
    expect(pid).toBeDefined();
    await t.server.db.raw('select pg_terminate_backend(?)', [pid!]);
    await waitFor(async () => (await listeners()).length === 0, 'listener gone');
    // Nobody listens: this NOTIFY reaches no one.
    await writeTag(other, 'acme', { id: 'bus-2', name: 'durante', department: 'bus' });

    const got = await s.frame('changes', (f) => f.added.some((r) => r.id === 'bus-2'), 15_000);
    expect(got.added.map((r) => r.id)).toEqual(['bus-2']);
    const [again] = await listeners();
    expect(again).toBeDefined();
    expect(again).not.toBe(pid);
  });
});
