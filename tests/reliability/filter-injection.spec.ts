import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRule } from '@atendimento/schemas/registers/index';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * R7: filter and sort injection fuzz against every register list endpoint
 * (GET /api/{collection} and GET /api/mongodb/{collection}). Whatever the caller puts in
 * filter / sort / range / filters / orFilters / orderBy, the answer is 200 or a 4xx with
 * { error, errorMessage } — never a 500, never an SQL error text, never another tenant's row
 * or a password hash — and no statement it smuggles in runs. A hostile key, operator, sort
 * field, direction, range or limit is refused with 400; a hostile value on a real field is
 * a literal (it matches nothing, or is refused). Every register's tenant claim is switched
 * on first, so every list answers for itself instead of 403.
 */

const MARKER = 'SEGREDO-OUTRA-7731';
const SQL_PAYLOADS = [
  "' OR '1'='1",
  "x' OR 1=1 --",
  "1) OR (1=1",
  "'; drop table contacts; --",
  '"; drop table users; --',
  "' union select id, password_hash, email from users --",
  "') or tenant_id = 'outra' --",
  "%' or '%'='",
  '%',
  '_',
  '\\',
  "' || (select password_hash from users limit 1) || '",
  '$.password',
  "data->>'$.passwordHash'",
  '\u0000',
  "'\u0000' or 1=1",
  'ção\u202e--',
  'x'.repeat(5000),
];
const KEY_PAYLOADS = [
  "displayName' OR 1=1 --",
  'tenant_id',
  'data',
  'deleted_at',
  'password_hash',
  'passwordHash',
  '__proto__',
  'constructor',
  'lifeControl.deletedAt; drop table contacts',
  'id) or (1=1',
  '"id"',
  '`id`',
  '1',
  'displayName_gte; --',
  'json_extract(data, "$.x")',
];
/** Operators that are not operators (the valid ones: schemas' FILTER_OPS, plus '='). */
const HOSTILE_OPS = ['; drop table users', 'or 1=1', '===', '>= 0 or 1', 'LIKE', ' ==', ''];
const VALID_OPS = ['==', '=', '!=', '<', 'in', 'like', 'array-contains'];
/** Sort directions that are not asc / desc. */
const HOSTILE_DIRECTIONS = ['ASC; drop table contacts', 'DESC NULLS FIRST, (select 1)', "ASC') --", '', 'descending', 'desc; drop table users'];
const ODD_VALUES: unknown[] = [null, true, false, 0, -1, 1e308, [], [[]], {}, { $ne: null }, { op: 'or' }, ['a', { b: 1 }], 'null', 'true', '[]'];

/** A small deterministic PRNG so a failure can be reproduced. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

let t: TestServer;
let admin: string;
let outraAdmin: string;
let collections: { name: string; fields: string[] }[];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  outraAdmin = await t.tokenFor('outra', 'outra-admin');
  const mine = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: 'Ana Acme', phone: '+55 (11) 98888-0001', channels: ['whatsapp'] } });
  expect(mine.status).toBe(201);
  const theirs = await t.api('/api/contacts', { method: 'POST', token: outraAdmin, host: t.hosts.outra, body: { displayName: MARKER, email: 'segredo@outra.test', phone: '+55 (21) 97777-0002', channels: ['whatsapp'] } });
  expect(theirs.status).toBe(201);
  const registers = t.server.services.registers.registers;
  collections = [...registers.definitions.keys()].map((name) => ({ name, fields: Object.keys(registers.fieldsOf(name)) }));
  // Registers behind a tenant claim would answer 403 before parsing anything: switch them on.
  const claims = Object.fromEntries([...registers.definitions.values()].flatMap((d) => (registerRule(d.list).claim ? [[registerRule(d.list).claim!, true]] : [])));
  const config = (await t.server.repos.tenants.findById('acme'))!.appConfig;
  await t.patchAppConfig({ claims: { ...config.claims, ...claims } });
  for (const { name } of collections) expect((await t.api(`/api/${name}`, { token: admin })).status, name).toBe(200);
}, 60_000);
afterAll(() => t?.close());

const counts: Record<number, number> = {};

async function probe(path: string): Promise<{ status: number; body: any }> {
  const res = await t.api(path, { token: admin });
  counts[res.status] = (counts[res.status] ?? 0) + 1;
  const where = `${res.status} for ${decodeURIComponent(path).slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.text, where).not.toContain(MARKER);
  expect(res.text, where).not.toContain('outra.test');
  expect(res.text, where).not.toContain('$argon2');
  expect(res.text, where).not.toMatch(/SQLITE_|syntax error|no such column|relation .* does not exist|at .*\.(ts|js):\d+/i);
  if (res.status >= 400) {
    expect(res.body?.error, where).toEqual(expect.any(String));
    expect(res.body?.errorMessage, where).toEqual(expect.any(String));
  }
  return res;
}

/** A probe the server must refuse as the caller's mistake. */
async function refused(path: string): Promise<void> {
  const res = await probe(path);
  expect(res.status, `${res.status} for ${decodeURIComponent(path).slice(0, 300)}`).toBe(400);
}

const q = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))).toString();

describe('register list filters and sorts refuse injection (R7)', () => {
  it('finds register collections to fuzz', () => {
    expect(collections.map((c) => c.name)).toContain('contacts');
    expect(collections.find((c) => c.name === 'contacts')!.fields).toContain('displayName');
  });

  it('hostile values on real fields match nothing or are refused (simple-rest dialect)', async () => {
    // Every field gets 2 payloads, rotating so every payload meets many fields (fast: < 20 s).
    let i = 0;
    for (const { name, fields } of collections) {
      for (const field of fields) {
        i++;
        const values = [SQL_PAYLOADS[i % SQL_PAYLOADS.length], i % 3 === 0 ? ODD_VALUES[(i / 3) % ODD_VALUES.length] : SQL_PAYLOADS[(i + 7) % SQL_PAYLOADS.length]];
        for (const value of values) {
          const res = await probe(`/api/${name}?${q({ filter: { [field]: value } })}`);
          if (res.status === 200 && typeof value === 'string') {
            // A string that is SQL must not widen the match: nothing stored equals it.
            expect(res.body, `${name}.${field} = ${JSON.stringify(value)}`).toEqual([]);
          }
        }
      }
    }
  }, 60_000);

  it('hostile keys, sorts and ranges are refused with 400 (simple-rest dialect)', async () => {
    for (const { name } of collections) {
      for (const key of KEY_PAYLOADS) await refused(`/api/${name}?${q({ filter: { [key]: 'x' } })}`);
      for (const key of KEY_PAYLOADS) await refused(`/api/${name}?${q({ sort: [key, 'ASC'] })}`);
      if (name !== 'contacts') continue; // directions, sorts and ranges: one parser for every register
      for (const dir of HOSTILE_DIRECTIONS) await refused(`/api/${name}?${q({ sort: ['id', dir] })}`);
      for (const dir of HOSTILE_DIRECTIONS) await refused(`/api/${name}?${q({ sort: ['displayName', dir] })}`);
      for (const raw of ['nao-json', '{"a":1}', '[1,2]', '[null]', '[["id"]]', `["${'a'.repeat(3000)}"]`]) await refused(`/api/${name}?sort=${encodeURIComponent(raw)}`);
      for (const range of ['[-1,5]', '["0","9"]', '[0]', '[0,9,1]', "[0,9]; drop table users", '[1.5,2]', '[9,0]']) await refused(`/api/${name}?range=${encodeURIComponent(range)}`);
      // What is well-formed still answers: both directions in any case, and a huge range is capped.
      for (const dir of ['ASC', 'DESC', 'asc']) expect((await probe(`/api/${name}?${q({ sort: ['displayName', dir] })}`)).status).toBe(200);
      expect((await probe(`/api/${name}?range=${encodeURIComponent('[0,1e9]')}`)).status).toBe(200);
    }
  }, 60_000);

  it('hostile operators, keys and orders are refused with 400 (mongodb dialect)', async () => {
    const random = rng(7);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const value = () => (random() < 0.6 ? pick(SQL_PAYLOADS) : pick(ODD_VALUES));
    for (const { name, fields } of collections) {
      for (let i = 0; i < 6; i++) {
        // One hostile part per leaf: its key, or its operator.
        const badKey = { key: pick(KEY_PAYLOADS), operator: pick(VALID_OPS), value: pick(SQL_PAYLOADS) };
        const badOperator = { key: pick(fields), operator: pick(HOSTILE_OPS), value: pick(SQL_PAYLOADS) };
        const fair = { key: pick(fields), operator: pick(VALID_OPS), value: 'x' };
        await refused(`/api/mongodb/${name}?${q({ filters: [badKey], getTotal: 'true' })}`);
        await refused(`/api/mongodb/${name}?${q({ filters: [fair], orFilters: [fair, badOperator] })}`);
        await refused(`/api/mongodb/${name}/count?${q({ filters: [random() < 0.5 ? badKey : badOperator] })}`);
        await refused(`/api/mongodb/${name}?${q({ orderBy: [{ field: pick(KEY_PAYLOADS), mod: pick(['asc', 'desc']) }] })}`);
        await refused(`/api/mongodb/${name}?${q({ orderBy: [{ field: pick(fields), mod: pick(HOSTILE_DIRECTIONS) }] })}`);
        // Real key and operator with a hostile value: a literal (no 500, no leak; checked by probe).
        await probe(`/api/mongodb/${name}?${q({ filters: [{ key: pick(fields), operator: pick(VALID_OPS), value: value() }], getTotal: 'true' })}`);
      }
      for (const limit of ['0', '-1', 'abc', '1; drop table users', '1.5']) await refused(`/api/mongodb/${name}?limit=${encodeURIComponent(limit)}`);
      for (const last of ['-5', 'x', "0'"]) await refused(`/api/mongodb/${name}?last=${encodeURIComponent(last)}`);
      expect((await probe(`/api/mongodb/${name}?limit=${encodeURIComponent('1e9')}`)).status, 'a huge limit is capped').toBe(200);
    }
  }, 120_000);

  it('the free-text search (q) is a literal: SQL in it finds nothing and LIKE wildcards are escaped', async () => {
    for (const term of SQL_PAYLOADS) {
      const res = await probe(`/api/contacts?${q({ filter: { q: term } })}`);
      if (res.status === 200) expect(res.body, JSON.stringify(term)).toEqual([]);
    }
    const ok = await probe(`/api/contacts?${q({ filter: { q: 'ana acme' } })}`);
    expect(ok.status).toBe(200);
    expect(ok.body.map((c: { displayName: string }) => c.displayName)).toEqual(['Ana Acme']);
  });

  it('nothing smuggled in ran: tables, rows and the other tenant are intact', async () => {
    expect(counts[500]).toBeUndefined();
    expect(counts[403]).toBeUndefined();
    // Most probes must be refused (400), not silently accepted.
    expect(counts[400]).toBeGreaterThan(1000);
    const contacts = await t.server.db('contacts').select('tenant_id', 'display_name').orderBy('display_name');
    expect(contacts).toEqual([{ tenant_id: 'acme', display_name: 'Ana Acme' }, { tenant_id: 'outra', display_name: MARKER }]);
    expect(await t.server.db('users').count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    const theirs = await t.api('/api/contacts', { token: outraAdmin, host: t.hosts.outra });
    expect(theirs.status).toBe(200);
    expect(theirs.body.map((c: { displayName: string }) => c.displayName)).toEqual([MARKER]);
  });
});
