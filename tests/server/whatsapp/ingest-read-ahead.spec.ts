import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Room } from '@atendimento/schemas';
import type { InboundItem } from '@atendimento/server/services/chat/ingest-service';
import { parseJson } from '@atendimento/server/db/knex';
import { isBackgroundSql } from '../../helpers/background-sql';
import { inOneGroup } from '../../helpers/one-group';
import { startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

/**
 * Ingest's read-ahead (docs/ingest.md "Read-ahead"): messages that share a group commit have
 * their contacts, open rooms and campaign targets read once for the group. Each case here is
 * a burst whose messages depend on each other inside the group (two messages into one room, a
 * customer reached by two identities, a number change), and expects what the same messages
 * give one by one: every message stored once, one open room per chat, counters that count all.
 */
let t: WhatsappTest;
let channel: Channel;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
  channel = (await t.server.services.chat.deps.directory.channel('acme', 'wa-meta'))!;
});
afterAll(() => stopWhatsappServer(t));

let seq = 0;
function text(phone: string | null, body: string, userId?: string): InboundItem {
  return {
    externalId: `wamid.ahead.${++seq}`,
    timestamp: new Date().toISOString(),
    contact: { phone, userId: userId ?? null, displayName: `Cliente ${phone ?? userId}` },
    content: { type: 'text', text: body },
  };
}

const ingest = (items: InboundItem[]) => t.server.services.chat.ingest.ingestInbound('acme', channel, items);

async function openRooms(chatId: string): Promise<Room[]> {
  const rows = await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: 'wa-meta', chat_id: chatId, active: true });
  return rows.map((r) => parseJson<Room>(r.data, {} as Room));
}

async function messagesIn(roomId: string): Promise<string[]> {
  const rows = await t.server.db('messages').where({ tenant_id: 'acme', room_id: roomId }).orderBy('created_at');
  return rows.map((r) => String(parseJson<{ text: string }>(r.data, { text: '' }).text));
}

/** The statements run while `work` runs, by what they look up. */
async function statementsDuring<T>(work: () => Promise<T>): Promise<{ value: T; identities: number; openRooms: number; all: string[] }> {
  const all: string[] = [];
  const onQuery = (q: { sql: string }) => {
    if (!isBackgroundSql(q.sql)) all.push(q.sql);
  };
  t.server.db.on('query', onQuery);
  try {
    const value = await work();
    return {
      value,
      all,
      identities: all.filter((q) => /from [`"]contact_identities[`"]/.test(q)).length,
      openRooms: all.filter((q) => /[`"]open_key[`"] (=|in)/.test(q) && /^select/.test(q)).length,
    };
  } finally {
    t.server.db.off('query', onQuery);
  }
}

describe('ingest read-ahead (several webhooks in one group commit)', () => {
  it('eight requests of six customers: each message once, each room counts all of its messages, one lookup per kind for the group', async () => {
    const known = ['5511977000001', '5511977000002', '5511977000003', '5511977000004'];
    for (const phone of known) expect((await ingest([text(phone, 'primeira')]))[0]!.created).toBe(true);
    const [a, b, c, d] = known;
    const [n1, n2] = ['5511977000091', '5511977000092'];
    const requests = [[text(a!, 'a2')], [text(b!, 'b2'), text(b!, 'b3')], [text(c!, 'c2')], [text(d!, 'd2')], [text(a!, 'a3')], [text(n1, 'n1')], [text(n2, 'n2')], [text(n1, 'n1b')]];
    const run = await statementsDuring(() => inOneGroup(t.server.services.changes, requests.length, () => requests.map((items) => ingest(items))));
    expect(run.value.flat().map((r) => r.created)).toEqual(Array(9).fill(true));
    expect(run.all.filter((q) => /^(rollback|savepoint)/i.test(q)), run.all.join('\n')).toEqual([]);
    const expected: Record<string, string[]> = { [a!]: ['primeira', 'a2', 'a3'], [b!]: ['primeira', 'b2', 'b3'], [c!]: ['primeira', 'c2'], [d!]: ['primeira', 'd2'], [n1]: ['n1', 'n1b'], [n2]: ['n2'] };
    for (const [phone, texts] of Object.entries(expected)) {
      const rooms = await openRooms(phone);
      expect(rooms, phone).toHaveLength(1);
      expect(await messagesIn(rooms[0]!.id), phone).toEqual(texts);
      // Each message's room update built on the one before it in the same group.
      expect(rooms[0]!.messagesCount.contactMessage, phone).toBe(texts.length);
      expect(rooms[0]!.unreadCount, phone).toBe(texts.length);
      expect(rooms[0]!.lastMessage?.text, phone).toBe(texts.at(-1));
    }
    // One read-ahead statement per kind; a chat's second message in the group (a3, b3, n1b) reads again.
    expect({ identities: run.identities, openRooms: run.openRooms }, run.all.join('\n')).toEqual({ identities: 1 + 3, openRooms: 1 + 3 });
  });

  it("a customer's id-only message and their number's message in one group: one chat, the contact's", async () => {
    const phone = '5511977000051';
    const userId = 'BR.5151515151515151';
    const [first] = await ingest([text(phone, 'com número e id', userId)]);
    const close = await t.api(`/api/rooms/${first!.roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.admin });
    expect(close.status).toBe(200);
    expect(await openRooms(phone)).toHaveLength(0);
    // The id-only message finds the contact by its id, and its chat is the contact's number,
    // which the other message's read-ahead saw without an open room.
    const run = await statementsDuring(() => inOneGroup(t.server.services.changes, 2, () => [ingest([text(null, 'só o id', userId)]), ingest([text(phone, 'só o número')])]));
    expect(run.value.flat().map((r) => r.created)).toEqual([true, true]);
    // Right on the group's first run (a stale read would fail it and rerun it with savepoints).
    expect(run.all.filter((q) => /^(rollback|savepoint)/i.test(q)), run.all.join('\n')).toEqual([]);
    const rooms = await openRooms(phone);
    expect(rooms).toHaveLength(1);
    expect(await messagesIn(rooms[0]!.id)).toEqual(['só o id', 'só o número']);
    const closed = await t.server.db('rooms').where({ tenant_id: 'acme', id: first!.roomId }).first();
    expect(rooms[0]!.author.id).toBe(parseJson<Room>(closed.data, {} as Room).author.id);
  });

  it("a number change and the new number's first message in one group: the message joins the moved chat", async () => {
    const [oldPhone, newPhone] = ['5511977000061', '5521977000061'];
    const [first] = await ingest([text(oldPhone, 'antes da troca')]);
    const notice: InboundItem = {
      externalId: `wamid.ahead.${++seq}`,
      timestamp: new Date().toISOString(),
      contact: { phone: oldPhone, userId: null, displayName: 'Cliente troca' },
      content: { type: 'system', system: { type: 'user_changed_number', body: 'User changed number', newPhone } },
    };
    const run = await statementsDuring(() => inOneGroup(t.server.services.changes, 2, () => [ingest([notice]), ingest([text(newPhone, 'do número novo')])]));
    expect(run.value.flat().map((r) => r.roomId)).toEqual([first!.roomId, first!.roomId]);
    expect(run.all.filter((q) => /^(rollback|savepoint)/i.test(q)), run.all.join('\n')).toEqual([]);
    expect(await openRooms(oldPhone)).toHaveLength(0);
    const [moved] = await openRooms(newPhone);
    expect(moved!.id).toBe(first!.roomId);
    expect((await messagesIn(moved!.id)).at(-1)).toBe('do número novo');
  });
});
