import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, parseJson, type Db } from '@atendimento/server/db/knex';
import { seedDemo, DEMO_ACCOUNTS } from '@atendimento/server';
import { verifyPassword } from '@atendimento/server/services/auth/password';
import { Ajv } from 'ajv';
import { settingsOf, settingsRuleErrors, TENANT_SETTINGS_SCHEMA, type AppConfig } from '@atendimento/schemas';
import { AJV_OPTIONS, configureAjv } from '@atendimento/schemas/registers/index';

let db: Db;
let dir: string;
const schema = process.env.DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : null;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atendimento-seed-'));
  db = createDb({ databaseUrl: process.env.DATABASE_URL ?? null, databaseSchema: schema, sqliteFile: path.join(dir, 'seed.sqlite') });
  await migrate(db, schema);
});
afterAll(async () => {
  if (schema) await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const count = async (table: string, where: Record<string, unknown> = {}) => Number((await db(table).where({ tenant_id: 'demo', ...where }).count({ n: '*' }))[0]!.n);

describe('demo tenant', () => {
  it('is created on first start with data in every state, and kept on the second', async () => {
    expect(await seedDemo(db, { now: new Date('2026-11-20T12:00:00Z') })).toBe(true);
    expect(await count('users')).toBe(11);
    expect(await count('departments')).toBe(3);
    expect(await count('contacts')).toBe(200);
    expect(await count('channels')).toBe(3);
    expect(await count('rooms')).toBe(60);
    expect(await count('rooms', { active: false })).toBe(15);
    expect(await count('rooms', { active: true, in_attend: false, destination: 'vueJs' })).toBe(12);
    expect(await count('messages')).toBeGreaterThan(240);
    // The chat-menu operations to try (docs/console-operations.md): bot rooms in 'Bot', return to the bot, follow-me.
    expect(await count('rooms', { active: true, destination: 'bot' })).toBe(5);
    const claims = parseJson<{ claims: Record<string, unknown> }>((await db('tenants').where({ id: 'demo' }).first()).app_config, { claims: {} }).claims;
    expect(claims).toMatchObject({ backBeggining: true, enableBotTab: true, allowFollowMe: true });
    // Routing to try (docs/routing.md): Comercial by 'Menor carga' with rules and transhipment, a holiday contingency on the clock.
    const comercial = parseJson<Record<string, unknown>>((await db('departments').where({ tenant_id: 'demo', id: 'comercial' }).first()).data, {});
    expect(comercial).toMatchObject({ agentSelectionRule: 'load', waitingTime: 10, transhipment: 'deptosuporte' });
    // The demo agent alone online gets every chat waiting in Comercial and still takes a new
    // customer's chat (at 5 each, the web chat a new user started stayed in the queue, refused).
    const agentsChats = Number((await db('room_members').join('rooms', 'rooms.id', 'room_members.room_id').where({ 'rooms.tenant_id': 'demo', 'rooms.active': true, 'room_members.kind': 'agent', 'room_members.member_id': 'u-agente' }).count({ n: '*' }))[0]!.n);
    const waiting = await count('rooms', { active: true, in_attend: false, department_id: 'comercial' });
    expect(agentsChats + waiting + 1).toBeLessThanOrEqual(comercial.roomsPerAgent as number);
    // One rule, worded for a customer who may still be waiting (rules count from the customer's last message).
    expect(comercial.queueMessages).toEqual([expect.objectContaining({ command: 'sendMessage', arg: expect.stringContaining('na fila') })]);
    expect(await count('documents', { collection: 'contingecies' })).toBe(1);
    expect(await count('deadlines', { kind: 'contingencyEnd' })).toBe(1);

    // 'Configurações' saves what it loaded: the demo's settings pass the screen's own schema
    // (its footer link '/novidades' was refused and no switch could be saved).
    const validate = configureAjv(new Ajv({ ...AJV_OPTIONS })).compile(TENANT_SETTINGS_SCHEMA);
    const loaded = settingsOf(parseJson<AppConfig>((await db('tenants').where({ id: 'demo' }).first()).app_config, {} as AppConfig));
    expect(validate(JSON.parse(JSON.stringify(loaded))), JSON.stringify(validate.errors)).toBe(true);
    expect(settingsRuleErrors(loaded)).toEqual([]);

    await db('contacts').where({ tenant_id: 'demo', id: 'c-001' }).update({ display_name: 'Editado Pelo Usuário' });
    expect(await seedDemo(db)).toBe(false);
    expect((await db('contacts').where({ tenant_id: 'demo', id: 'c-001' }).first()).display_name).toBe('Editado Pelo Usuário');
  });

  it('prints accounts whose passwords really work, with the right roles', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const row = await db('users').where({ tenant_id: 'demo', email: account.email }).first();
      expect(await verifyPassword(row.password_hash, account.password)).toBe(true);
    }
    const supervisors = await db('department_members').where({ tenant_id: 'demo', role: 'supervisor', user_id: 'u-supervisor' });
    expect(supervisors.length).toBeGreaterThan(0);
  });

  it('is deterministic: the same contacts on every machine', async () => {
    const names = (await db('contacts').where({ tenant_id: 'demo' }).orderBy('id').offset(1).limit(4).select('display_name')).map((r) => r.display_name);
    expect(names).toMatchInlineSnapshot(`
      [
        "Mariana Costa",
        "Vanessa Lopes",
        "André Ferreira",
        "Marcos Costa",
      ]
    `);
  });
});
