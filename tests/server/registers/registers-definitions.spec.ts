import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { list, setTenantClaims, userWith } from './register-test-kit';
import { writeVehiclesFolder } from './new-register-folder';

/**
 * GET /api/registers/definitions (what the engine renders its screens from) and a register
 * added as one folder in REGISTERS_DIRS, with no other code: listed, validated, stored.
 */
let t: TestServer;
let dir: string;
let admin: string;

beforeAll(async () => {
  dir = writeVehiclesFolder();
  t = await startTestServer({ env: { REGISTERS_DIRS: dir } });
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

type View = { name: string; readOnly: boolean; lockedFields: string[]; schema: { properties: Record<string, unknown> }; list: { label: string } };
const definitions = async (token: string): Promise<View[]> => {
  const res = await t.api('/api/registers/definitions', { token });
  expect(res.status).toBe(200);
  return res.body.data as View[];
};

describe('GET /api/registers/definitions', () => {
  it('needs a signed-in user', async () => {
    expect((await t.api('/api/registers/definitions')).status).toBe(401);
  });

  it('gives an admin every register the tenant has, and an agent only those open to them', async () => {
    const all = (await definitions(admin)).map((d) => d.name);
    expect(all).toEqual(expect.arrayContaining(['contacts', 'agents', 'departaments', 'faq', 'tags', 'fixedMessages', 'vehicles']));
    // Tenant claim registers stay out while the claim is off.
    expect(all).not.toContain('negotiations');

    const agent = await userWith(t, 'def-agent', { contacts: true });
    const mine = (await definitions(agent)).map((d) => d.name);
    expect(mine).toContain('contacts');
    expect(mine).toContain('fixedMessages');
    expect(mine).not.toContain('agents');
    expect(mine).not.toContain('vehicles');
  });

  it('locks the admin-only switches for non-admins and hides fields whose tenant claim is off', async () => {
    const agent = await userWith(t, 'def-agent-2', { contacts: true, faq: true });
    const contacts = (await definitions(agent)).find((d) => d.name === 'contacts')!;
    expect(contacts.lockedFields).toEqual(expect.arrayContaining(['active', 'blockedSending', 'blockedReceiving', 'autoBlocked']));
    const adminContacts = (await definitions(admin)).find((d) => d.name === 'contacts')!;
    expect(adminContacts.lockedFields).not.toContain('active');

    const questions = () => definitions(admin).then((all) => all.find((d) => d.name === 'faqQuestions')!);
    expect(Object.keys((await questions()).schema.properties)).not.toContain('anex');
    await setTenantClaims(t, { faqAnex: true });
    expect(Object.keys((await questions()).schema.properties)).toContain('anex');
  });
});

describe('a register added as one folder (REGISTERS_DIRS)', () => {
  it('is described, validated with its own messages, stored and listed', async () => {
    const vehicles = (await definitions(admin)).find((d) => d.name === 'vehicles')!;
    expect(vehicles.list.label).toBe('Veículos');

    const bad = await t.api('/api/vehicles', { method: 'POST', token: admin, body: { model: '', plate: 'abc', year: 1800 } });
    expect(bad.status).toBe(400);
    expect(Object.fromEntries(bad.body.fields.map((f: { field: string; message: string }) => [f.field, f.message]))).toEqual({
      model: 'Informe o modelo',
      plate: 'Placa inválida (ex.: ABC1D23)',
      year: 'Informe um valor numérico',
    });

    const ok = await t.api('/api/vehicles', { method: 'POST', token: admin, body: { model: 'Kombi', plate: 'ABC1D23', year: 1975 } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ model: 'Kombi', plate: 'ABC1D23', year: 1975, active: true, color: '#1976D2FF' });

    const page = await list(t, admin, 'vehicles', { filter: { q: 'kom' }, range: [0, 4], sort: ['model', 'ASC'] });
    expect(page.status).toBe(200);
    expect(page.total).toBe(1);
    expect(page.body[0].id).toBe(ok.body.id);

    // Guarded like any register: a user without the permission gets 403.
    const agent = await userWith(t, 'def-agent-3', {});
    expect((await t.api('/api/vehicles', { token: agent })).status).toBe(403);
  });
});
