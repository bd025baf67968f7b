import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Room } from '@atendimento/schemas';
import type { InboundItem } from '@atendimento/server/services/chat/ingest-service';
import { dialectOf, parseJson } from '@atendimento/server/db/knex';
import { enableWriteBehind, writeBehind } from '@atendimento/server/db/write-behind';
import { isBackgroundSql } from '../../helpers/background-sql';
import { inOneGroup } from '../../helpers/one-group';
import { startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

/**
 * Write-behind (docs/ingest.md "Write-behind"): in a group commit's optimistic run on
 * PostgreSQL, customers' messages into open rooms are held back and written together, the
 * messages in one insert and their rooms in one update. What a caller sees must not change:
 * every message once, a duplicate in the group answered as a duplicate and the others stored,
 * and any statement after a held-back write sees it. The same cases run on SQLite, where
 * nothing is held back.
 */
let t: WhatsappTest;
let channel: Channel;
let pg = false;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
  channel = (await t.server.services.chat.deps.directory.channel('acme', 'wa-meta'))!;
  pg = dialectOf(t.server.db) === 'pg';
});
afterAll(() => stopWhatsappServer(t));

let seq = 0;
function text(phone: string, body: string, externalId = `wamid.behind.${++seq}`): InboundItem {
  return { externalId, timestamp: new Date().toISOString(), contact: { phone, userId: null, displayName: `Cliente ${phone}` }, content: { type: 'text', text: body } };
}

const ingest = (items: InboundItem[]) => t.server.services.chat.ingest.ingestInbound('acme', channel, items);

async function openRoom(phone: string): Promise<Room> {
  const rows = await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: 'wa-meta', chat_id: phone, active: true });
  expect(rows, phone).toHaveLength(1);
  return parseJson<Room>(rows[0].data, {} as Room);
}

async function textsIn(roomId: string): Promise<string[]> {
  const rows = await t.server.db('messages').where({ tenant_id: 'acme', room_id: roomId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map((r) => String(parseJson<{ text: string }>(r.data, { text: '' }).text));
}

async function sqlDuring<T>(work: () => Promise<T>): Promise<{ value: T; sql: string[] }> {
  const sql: string[] = [];
  const onQuery = (q: { sql: string }) => {
    if (!isBackgroundSql(q.sql)) sql.push(q.sql);
  };
  t.server.db.on('query', onQuery);
  try {
    return { value: await work(), sql };
  } finally {
    t.server.db.off('query', onQuery);
  }
}

/** Customers with an open room each (their first message alone, before the group). */
async function customers(prefix: string, n: number): Promise<string[]> {
  const phones = Array.from({ length: n }, (_, i) => `55119${prefix}${String(i).padStart(4, '0')}`);
  for (const phone of phones) expect((await ingest([text(phone, 'primeira')]))[0]!.created).toBe(true);
  return phones;
}

describe('write-behind in a group commit', () => {
  it('six customers writing at once: each message stored once, each room updated, one insert for the group on PostgreSQL', async () => {
    const phones = await customers('81', 6);
    const run = await sqlDuring(() => inOneGroup(t.server.services.changes, phones.length, () => phones.map((p) => ingest([text(p, `segunda de ${p}`)]))));
    expect(run.value.flat().map((r) => r.created)).toEqual(Array(6).fill(true));
    expect(run.sql.filter((q) => /^(rollback|savepoint)/i.test(q)), run.sql.join('\n')).toEqual([]);
    for (const phone of phones) {
      const room = await openRoom(phone);
      expect(await textsIn(room.id)).toEqual(['primeira', `segunda de ${phone}`]);
      expect(room.unreadCount).toBe(2);
      expect(room.lastMessage?.text).toBe(`segunda de ${phone}`);
    }
    const inserts = run.sql.filter((q) => /insert into [`"]?messages[`"]? /i.test(q)).length;
    expect(inserts, run.sql.join('\n')).toBe(pg ? 1 : 6);
  });

  it('rooms whose messages change different columns (one moves the last-message time, one does not): one statement on PostgreSQL, each room right', async () => {
    const phones = await customers('85', 4);
    const before = new Map<string, string>();
    for (const phone of phones) before.set(phone, (await openRoom(phone)).lastMessageAt);
    // Two sent before the room's last message (a late delivery: its last-message time stays), two now (it moves).
    const old = new Date(Date.now() - 60_000).toISOString();
    const now = new Date(Date.now() + 5).toISOString();
    const run = await sqlDuring(() => inOneGroup(t.server.services.changes, 4, () => phones.map((p, i) => ingest([{ ...text(p, `segunda de ${p}`), timestamp: i % 2 ? now : old }]))));
    expect(run.value.flat().map((r) => r.created)).toEqual(Array(4).fill(true));
    for (const [i, phone] of phones.entries()) {
      const room = await openRoom(phone);
      const expected = i % 2 ? now : before.get(phone);
      expect(expected! > old).toBe(true);
      // A late delivery takes its place by its own time, before the first.
      expect(await textsIn(room.id)).toEqual(i % 2 ? ['primeira', `segunda de ${phone}`] : [`segunda de ${phone}`, 'primeira']);
      expect({ unread: room.unreadCount, at: room.lastMessageAt }).toEqual({ unread: 2, at: expected });
      expect((await t.server.db('rooms').where({ id: room.id }).first('last_message_at')).last_message_at).toBe(expected);
    }
    const writes = run.sql.filter((q) => /(insert into [`"]?messages|update [`"]?rooms)/i.test(q));
    if (pg) {
      expect(writes, run.sql.join('\n')).toHaveLength(1);
      expect(writes[0]!.match(/update rooms/g), writes[0]).toHaveLength(2);
    } else expect(writes.length).toBe(8);
  });

  it('a statement after a held-back write sees it (a later job of the group reads the message and the room)', async () => {
    const [phone] = await customers('84', 1);
    const feed = t.server.services.changes;
    let seen: { message: unknown; unread: unknown } | null = null;
    const { value: [results], sql } = await sqlDuring(() => inOneGroup(feed, 2, () => [
      ingest([text(phone!, 'lida pelo próximo', 'wamid.behind.read-after')]),
      // Asks after the ingest did, so it runs after it in the group.
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => feed.grouped('acme', async (trx) => {
        const message = await trx('messages').where({ tenant_id: 'acme', external_id: 'wamid.behind.read-after' }).first('id');
        const room = await trx('rooms').where({ tenant_id: 'acme', chat_id: phone!, active: true }).first('unread_count');
        seen = { message: message?.id ?? null, unread: room?.unread_count ?? null };
        return [];
      })),
    ]));
    expect(seen).toEqual({ message: results![0]!.messageId, unread: 2 });
    // Held back on PostgreSQL (the group's multi-row insert wrote it, just before the read).
    if (pg) expect(sql.filter((q) => /insert into messages .* unnest/i.test(q)), sql.join('\n')).toHaveLength(1);
  });
  it('the same message twice in one group, beside others: one row, the copy answered as a duplicate, the others stored', async () => {
    const phones = await customers('82', 4);
    const twice = text(phones[0]!, 'repetida');
    const requests = [[twice], [text(phones[1]!, 'outra 1')], [{ ...twice }], [text(phones[2]!, 'outra 2')], [text(phones[3]!, 'outra 3')]];
    const results = (await inOneGroup(t.server.services.changes, requests.length, () => requests.map((items) => ingest(items)))).flat();
    expect(results.map((r) => r.created).sort()).toEqual([false, true, true, true, true]);
    expect(results[0]!.messageId).toBe(results[2]!.messageId);
    expect(await textsIn((await openRoom(phones[0]!)).id)).toEqual(['primeira', 'repetida']);
    expect((await openRoom(phones[0]!)).unreadCount).toBe(2);
    for (const [i, phone] of phones.slice(1).entries()) expect(await textsIn((await openRoom(phone)).id)).toEqual(['primeira', `outra ${i + 1}`]);
  });

  it('a message stored earlier and delivered again inside a group: answered as a duplicate, the group\'s new messages stored', async () => {
    const phones = await customers('83', 3);
    const old = text(phones[0]!, 'já recebida');
    const [first] = await ingest([old]);
    const results = (await inOneGroup(t.server.services.changes, 3, () => [ingest([text(phones[1]!, 'nova 1')]), ingest([{ ...old }]), ingest([text(phones[2]!, 'nova 2')])])).flat();
    expect(results.map((r) => r.created)).toEqual([true, false, true]);
    expect(results[1]!.messageId).toBe(first!.messageId);
    expect(await textsIn((await openRoom(phones[0]!)).id)).toEqual(['primeira', 'já recebida']);
    expect(await textsIn((await openRoom(phones[1]!)).id)).toEqual(['primeira', 'nova 1']);
  });

});

describe('write-behind when a held-back write fails', () => {
  const failing = async () => {
    throw new Error('escrita retida falhou');
  };

  it('a caller that swallows the failure cannot commit: the transaction rejects and nothing it wrote is stored', async () => {
    const db = t.server.db;
    const run = db.transaction(async (trx) => {
      enableWriteBehind(trx);
      await trx('counters').insert({ tenant_id: 'acme', name: 'write-behind-test', value: 1 });
      expect(writeBehind(trx, failing, 1)).toBe(true);
      await trx.raw('select 1').catch(() => undefined);
      return 'committed';
    });
    await expect(run).rejects.toThrow('escrita retida falhou');
    expect(await db('counters').where({ tenant_id: 'acme', name: 'write-behind-test' }).first()).toBeUndefined();
    // The connection went back to the pool usable (no transaction left open on it).
    await db.transaction(async (trx) => trx('counters').insert({ tenant_id: 'acme', name: 'write-behind-after', value: 1 }));
    expect(await db('counters').where({ tenant_id: 'acme', name: 'write-behind-after' }).first()).toBeTruthy();
  });

  it('in a group: the optimistic run fails, the rerun (savepoints, nothing held back) answers every job', async () => {
    const feed = t.server.services.changes;
    // After the duplicates above failed a group's first run, the lane runs savepoints for a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const ran: string[] = [];
    const job = (name: string) => feed.grouped('acme', async (trx) => {
      ran.push(writeBehind(trx, failing, name) ? `${name}:retida` : `${name}:direta`);
      return name;
    });
    const results = await inOneGroup(feed, 2, () => [job('a'), job('b')]);
    expect(results).toEqual(['a', 'b']);
    // On PostgreSQL the first run held both back and failed at the group's end; SQLite never holds back.
    expect(ran).toEqual(pg ? ['a:retida', 'b:retida', 'a:direta', 'b:direta'] : ['a:direta', 'b:direta']);
  });
});
