import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * The idempotency key's unique index covers only keyed rows (migration 022): inbound, system
 * and campaign messages carry no key and write no entry there; agent sends with a key stay
 * unique per tenant (tests/server/chat/chat-attend.spec.ts sends one twice).
 */
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('messages_idempotency_unique', () => {
  it('is a unique index over the rows that have a key', async () => {
    const db = t.server.db;
    const definition: string = db.client.config.client === 'pg'
      ? (await db.raw("select indexdef as sql from pg_indexes where indexname = 'messages_idempotency_unique' and schemaname = current_schema()")).rows[0]?.sql
      : (await db('sqlite_master').where({ type: 'index', name: 'messages_idempotency_unique' }).first('sql'))?.sql;
    expect(definition).toMatch(/create unique index/i);
    expect(definition).toMatch(/\(\s*"?tenant_id"?\s*,\s*"?idempotency_key"?\s*\)/i);
    expect(definition).toMatch(/where\s+\(?\s*"?idempotency_key"?\s+is not null/i);
  });
});
