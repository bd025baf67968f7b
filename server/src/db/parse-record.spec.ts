import { describe, expect, it } from 'vitest';
import { emptyRoomState } from '@atendimento/schemas';
import { parseRecord, toJson } from './knex';
import { roomFromRow } from './repositories/room-repository';

describe('parseRecord', () => {
  it('fills the keys a stored record lacks and keeps what it holds, nulls included', () => {
    const record = parseRecord<{ a: number; b: string | null; c: string[] }>(toJson({ a: 1, b: null }), { a: 0, b: 'x', c: [] });
    expect(record).toEqual({ a: 1, b: null, c: [] });
  });

  it('copies a jsonb object instead of filling the driver row in place', () => {
    const stored = { a: 1 };
    const record = parseRecord<{ a: number; b: number }>(stored, { b: 2 });
    expect(record).toEqual({ a: 1, b: 2 });
    expect(stored).toEqual({ a: 1 });
  });

  it('answers the defaults for a missing, broken or non-object column', () => {
    for (const value of [null, undefined, '{broken', '[1,2]', '"text"']) expect(parseRecord(value, { a: 0 })).toEqual({ a: 0 });
  });
});

describe('roomFromRow', () => {
  const row = {
    id: 'r1', room_inc: 7, chat_id: '5511999990000', channel: 'meta', channel_id: 'wa', destination: 'vueJs', active: 1, in_attend: 0,
    internal: 0, unread_count: 2, public_token: 'tok', last_message_at: null, contact_id: 'c1',
    created_at: '2026-11-01T10:00:00.000Z', updated_at: '2026-11-02T10:00:00.000Z', deleted_at: null,
  };

  it('gives a record written by an older version every field of a room, the columns winning over the record', () => {
    const room = roomFromRow({ ...row, data: toJson({ id: 'stale', active: false, tags: ['vip'], subject: null, lifeControl: { createdAt: 'old', custom: 1 } }) });
    expect(Object.keys(room)).toEqual(expect.arrayContaining(Object.keys(emptyRoomState())));
    expect(room).toMatchObject({
      id: 'r1', roomInc: 7, chatId: '5511999990000', channel: 'meta', channelId: 'wa', channelIdTextit: null, origin: 'meta', departmentId: null,
      active: true, inAttend: false, internal: false, unreadCount: 2, publicToken: 'tok', tags: ['vip'], subject: null, agents: [],
      lastMessageAt: '2026-11-01T10:00:00.000Z',
      author: { id: 'c1', displayName: '', chatId: '5511999990000', type: 'client' },
      lifeControl: { createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-02T10:00:00.000Z', deletedAt: null, custom: 1 },
    });
  });

  it('gives each room its own arrays', () => {
    const a = roomFromRow({ ...row, data: '{}' });
    const b = roomFromRow({ ...row, data: '{}' });
    a.agents.push({ id: 'x' } as never);
    expect(b.agents).toEqual([]);
  });
});
