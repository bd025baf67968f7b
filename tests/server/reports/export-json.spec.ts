import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '@atendimento/server/db/knex';
import { createExportRepository } from '@atendimento/server/db/repositories/report-repository';
import { roomFromRow } from '@atendimento/server/db/repositories/room-repository';
import { startChatServer, stopChatServer, visitorStarts, type ChatTest } from '../chat/chat-helpers';

/**
 * The JSON export's room documents are built by the database (report-repository
 * EXPORT_DOC_*): each must equal what `roomFromRow` gives in Node, without the public token —
 * for rooms the product wrote and for old or odd rows (no author, channelId null or an array,
 * lifeControl missing, a publicToken inside the JSON, keys of an empty room missing).
 */
let t: ChatTest;
const DAY = '2026-02-10';

beforeAll(async () => {
  t = await startChatServer();
  await visitorStarts(t, 'site-vendas', 'Olá, quero um orçamento', 'Cliente Web');
  const base = { tenant_id: 'acme', chat_id: '5511999990000', channel: 'meta', channel_id: 'wa-1', contact_id: 'c-1', destination: 'vueJs', active: true, in_attend: false, unread: false, internal: false, last_message_at: null, closed_at: null, department_id: null, unread_count: 0, deleted_at: null, created_at: `${DAY}T12:00:00.000Z`, updated_at: `${DAY}T12:05:00.000Z` };
  const rows: Record<string, unknown>[] = [
    { id: 'odd-1', room_inc: 9001, public_token: 'tok-odd-1', data: toJson({ publicToken: 'vazou', channelId: null, author: null, lifeControl: null, tags: ['a'], nps: { value: 9, answerdAt: `${DAY}T13:00:00.000Z` } }) },
    { id: 'odd-2', room_inc: 9002, public_token: 'tok-odd-2', channel_id: null, contact_id: null, active: false, in_attend: true, unread_count: 3, deleted_at: `${DAY}T20:00:00.000Z`, data: toJson({ channelId: ['wa-1', 'wa-2'], origin: null, author: { id: 'c-9', displayName: 'Zé "Aspas" \\ Barra', type: 'client' }, lifeControl: { createdAt: 'antigo', extra: 1 }, departmentId: 'vendas', text: 'ç ã 😀 \u2028' }) },
    { id: 'odd-3', room_inc: 9003, public_token: 'tok-odd-3', data: '{}' },
  ];
  await t.server.db('rooms').insert(rows.map((r) => ({ ...base, ...r })));
}, 60_000);
afterAll(() => stopChatServer(t));

describe('JSON export documents', () => {
  it('equal roomFromRow without the public token, room by room, on this database', async () => {
    const repo = createExportRepository(t.server.db);
    const query = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z', reference: 'createdAt' as const, departments: null };
    // The rows as the room repository reads them, in the export's order (creation date, id).
    const full = { rows: (await t.server.db('rooms').where({ tenant_id: 'acme', internal: false }).orderBy([{ column: 'created_at' }, { column: 'id' }])) as Record<string, unknown>[] };
    const docs = await repo.page('acme', query, null, 1000, 'json');
    expect(docs.rows.map((r) => r.id)).toEqual(full.rows.map((r) => r.id));
    expect(full.rows.length).toBeGreaterThanOrEqual(4);
    for (const [i, row] of full.rows.entries()) {
      const expected = JSON.parse(JSON.stringify({ ...roomFromRow(row), publicToken: undefined }));
      const actual = JSON.parse(String(docs.rows[i]!.export_doc));
      expect(actual, String(row.id)).toEqual(expected);
      expect(String(docs.rows[i]!.export_doc)).not.toContain(String(row.public_token));
      expect(actual).not.toHaveProperty('publicToken');
    }
  });
});
