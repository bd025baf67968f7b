import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '@atendimento/server/db/knex';
import { createStatusRepository } from '@atendimento/server/db/repositories/status-repository';
import { MINUTE, startRoutingServer, stopRoutingServer, tokenOf, type RoutingTest } from '../routing/routing-helpers';
import { simpleParser } from 'mailparser';
import { messages } from '@atendimento/schemas';
import { visitorStarts } from '../chat/chat-helpers';
import { waitFor } from '../../helpers/wait-for';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createExportJobRepository } from '@atendimento/server/db/repositories/export-job-repository';
import { createExportRepository } from '@atendimento/server/db/repositories/report-repository';
import { createDashboardExportService, EXPORT_LEASE_MS, EXPORT_MAX_ATTEMPTS } from '@atendimento/server/services/reports/export-service';
import { createLogger } from '@atendimento/server/logger';

/**
 * The daily reports (docs/reports.md) on a scripted evening of chats in São Paulo (UTC-3),
 * across the UTC midnight (21:00 local) and the local midnight. Known answers, by hand:
 *
 * | local time (05/01) | what happens |
 * | 18:00 | agente online; 18:01 online again (60 s online); 18:01:30 ausente (30 s) |
 * | 19:00 | R1 on site-vendas (Cliente 1) — hour 19 |
 * | 19:02 | agente takes R1 and answers: first answer 120 s; tags R1 'Venda' |
 * | 19:10 | R2 on site-suporte (Cliente 2) — hour 19 |
 * | 19:15 | suporte takes R2 and answers: 300 s (R2 stays open) |
 * | 19:20 | agente closes R1: handling 1200 s; NPS 9 answered |
 * | 21:30 | (00:30 UTC on the 6th) R3 on site-vendas (Cliente 3) — still the 5th, hour 21 |
 * | 21:34 | agente answers R3: 240 s; R3 transferred to suporte (room_transfers) |
 * | 21:40 | agente closes R3: handling 600 s; NPS 6 answered |
 * | 23:59:30 | agente online; 00:00:30 (6th) online: 30 s on the 5th, 30 s on the 6th |
 * | 00:30 (6th) | R4 on site-vendas (Cliente 4), never answered — filed on the 6th |
 */
let t: RoutingTest;
const START = new Date('2026-01-05T21:00:00.000Z'); // 18:00 in São Paulo
const at = (localHm: string, day = '05') => new Date(`2026-01-${day}T${localHm}-03:00`);
const rooms: Record<string, string> = {};

async function moveTo(when: Date): Promise<void> {
  const delta = when.getTime() - t.clock.now().getTime();
  expect(delta).toBeGreaterThanOrEqual(0);
  t.clock.advance(delta);
}

async function status(userId: string, value: string): Promise<void> {
  const res = await t.api(`/api/users/${userId}/status`, { method: 'POST', body: { status: value }, token: tokenOf(t, userId) });
  expect(res.status, res.text).toBe(200);
}

async function answer(roomId: string, userId: string, text: string): Promise<void> {
  const take = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, userId) });
  expect(take.status, take.text).toBe(200);
  const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text }, token: tokenOf(t, userId) });
  expect(sent.status, sent.text).toBe(201);
}

async function close(roomId: string, userId: string): Promise<void> {
  const res = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: tokenOf(t, userId) });
  expect(res.status, res.text).toBe(200);
}

/** A survey answer as the console operations write it: the room's value, then one report call. */
async function npsAnswer(roomId: string, value: number): Promise<void> {
  await t.server.services.changes.transaction('acme', async (trx, record) => {
    await trx('rooms').where({ tenant_id: 'acme', id: roomId }).update({ nps_value: value });
    record({ collection: 'rooms', id: roomId, op: 'upsert' });
  });
}

async function dashboard(token: string, query = 'from=2026-01-05&to=2026-01-06') {
  const res = await t.api(`/api/dashboard/reports?${query}`, { token });
  return res;
}

beforeAll(async () => {
  t = await startRoutingServer(START);
  // The transfers table of the console operations where it is not migrated yet.
  const db = t.server.db;
  if (!(await db.schema.hasTable('room_transfers'))) {
    await db.schema.createTable('room_transfers', (tb) => {
      tb.string('tenant_id', 64).notNullable();
      tb.string('id', 64).notNullable();
      tb.string('room_id', 64).notNullable();
      tb.string('from_user_id', 64).nullable();
      tb.string('to_user_id', 64).nullable();
      tb.string('from_department_id', 64).nullable();
      tb.string('to_department_id', 64).nullable();
      tb.text('justification').nullable();
      tb.text('observation').nullable();
      tb.string('created_by', 64).nullable();
      tb.string('created_at', 32).notNullable();
      tb.primary(['tenant_id', 'id']);
    });
  }
  const iso = START.toISOString();
  await db('tags').insert({ id: 'tag-venda', tenant_id: 'acme', data: toJson({ id: 'tag-venda', name: 'Venda', color: '#ff0000', active: true }), created_at: iso, updated_at: iso, deleted_at: null, active: true, name: 'Venda' });

  await status('acme-agente', 'online');
  await moveTo(at('18:01:00'));
  await status('acme-agente', 'online');
  await moveTo(at('18:01:30'));
  await status('acme-agente', 'ausente');

  await moveTo(at('19:00:00'));
  rooms.r1 = (await visitorStarts(t, 'site-vendas', 'Quero um orçamento', 'Cliente 1')).roomId!;
  await moveTo(at('19:02:00'));
  await answer(rooms.r1, 'acme-agente', 'Olá! Vou preparar.');
  expect((await t.api(`/api/rooms/${rooms.r1}`, { method: 'PATCH', body: { tags: ['tag-venda'] }, token: tokenOf(t, 'acme-agente') })).status).toBe(200);
  await moveTo(at('19:10:00'));
  rooms.r2 = (await visitorStarts(t, 'site-suporte', 'Meu pedido não chegou', 'Cliente 2')).roomId!;
  await moveTo(at('19:15:00'));
  await answer(rooms.r2, 'acme-suporte', 'Vou verificar.');
  await moveTo(at('19:20:00'));
  await close(rooms.r1, 'acme-agente');
  await npsAnswer(rooms.r1, 9);

  await moveTo(at('21:30:00'));
  rooms.r3 = (await visitorStarts(t, 'site-vendas', 'Boa noite', 'Cliente 3')).roomId!;
  await moveTo(at('21:34:00'));
  await answer(rooms.r3, 'acme-agente', 'Boa noite!');
  await t.server.services.changes.transaction('acme', async (trx) => {
    await trx('room_transfers').insert({ tenant_id: 'acme', id: 'tr-1', room_id: rooms.r3, from_user_id: 'acme-agente', to_user_id: null, from_department_id: 'vendas', to_department_id: 'suporte', justification: 'Outro setor', observation: null, created_by: 'acme-agente', created_at: t.clock.now().toISOString() });
    await t.server.services.reports.record(trx, 'acme', { type: 'room.transferred', roomId: rooms.r3! });
  });
  await moveTo(at('21:40:00'));
  await close(rooms.r3, 'acme-agente');
  await npsAnswer(rooms.r3, 6);

  await moveTo(at('23:59:30'));
  await status('acme-agente', 'online');
  await moveTo(at('00:00:30', '06'));
  await status('acme-agente', 'online');
  await moveTo(at('00:30:00', '06'));
  rooms.r4 = (await visitorStarts(t, 'site-vendas', 'Alguém aí?', 'Cliente 4')).roomId!;
  await moveTo(at('09:00:00', '06'));
  await t.server.services.changes.idle();
}, 60_000);
afterAll(() => stopRoutingServer(t));

const byKey = <T extends Record<string, unknown>>(list: T[], key: keyof T) => Object.fromEntries(list.map((x) => [String(x[key]), x]));

describe('daily reports, kept incrementally', () => {
  it("files each chat under its local creation day, across the UTC midnight, with every report kind's known numbers (admin)", async () => {
    const res = await dashboard(t.tokens.admin);
    expect(res.status, res.text).toBe(200);
    const data = res.body.data;
    expect(data.timeZone).toBe('America/Sao_Paulo');
    expect(data.days.map((d: { date: string }) => d.date)).toEqual(['2026-01-05', '2026-01-06']);
    const [d5, d6] = data.days;

    expect(d5.roomDate).toMatchObject({ countRooms: 3, countContacts: 3 });
    expect(byKey(d5.roomDate.departmentRooms, 'departmentId')).toMatchObject({ vendas: { count: 2, departament: 'deptovendas' }, suporte: { count: 1 } });
    expect(byKey(d5.roomDate.channelRooms, 'channelId')).toMatchObject({ 'site-vendas': { countRooms: 2, countContacts: 2, label: 'Chat Vendas' }, 'site-suporte': { countRooms: 1, countContacts: 1 } });
    expect(byKey(d5.roomDate.agentsRooms, 'agent')).toMatchObject({ 'acme-agente': { count: 2, countContacts: 2 }, 'acme-suporte': { count: 1, countContacts: 1 } });

    expect(byKey(d5.firstAttend.agents, 'agent')).toMatchObject({ 'acme-agente': { avgTime: 180, count: 2 }, 'acme-suporte': { avgTime: 300, count: 1 } });
    expect(byKey(d5.firstAttend.departaments, 'departament')).toMatchObject({ vendas: { avgTime: 180 }, suporte: { avgTime: 300 } });
    expect(d5.agentTMA.tma).toEqual([{ agentId: 'acme-agente', avg: 900, count: 2, totalMs: 1_800_000 }]);
    expect(d5.departmentTMA.tma).toEqual([{ departmentId: 'vendas', avg: 900, count: 2, totalMs: 1_800_000 }]);

    const hours = d5.roomsHoursHeatmap.hoursHitmap;
    expect(hours).toHaveLength(24);
    expect(hours[19]).toEqual({ hour: 19, label: '19h-20h', count: 2 });
    expect(hours[21]).toEqual({ hour: 21, label: '21h-22h', count: 1 });
    expect(hours.reduce((s: number, h: { count: number }) => s + h.count, 0)).toBe(3);

    expect(d5.tagsReport.tags).toEqual([{ id: 'tag-venda', name: 'Venda', color: '#ff0000', count: 1, departments: [{ departament: 'vendas', count: 1 }] }]);
    expect(d5.npsAnswered.npsAgents).toEqual([{ agent: 'acme-agente', avg: 7.5, totalCount: 2, total: 15, values: { '6': 1, '9': 1 } }]);
    expect(d5.npsRequested.npsAgents).toEqual([{ agent: 'acme-agente', totalCount: 2 }]);
    expect(d5.transfers).toEqual({ count: 1, departments: [{ from: 'vendas', to: 'suporte', count: 1 }], agents: [{ agent: 'acme-agente', count: 1 }] });
    // 60 s + 30 s in the afternoon, 30 s before midnight.
    expect(d5.userStatus.agents).toEqual([{ agent: 'acme-agente', totalHours: Math.round((120 / 3600) * 10_000) / 10_000, totalMs: 120_000 }]);

    expect(d6.roomDate).toMatchObject({ countRooms: 1, countContacts: 1 });
    expect(d6.firstAttend.agents).toEqual([]);
    expect(d6.roomsHoursHeatmap.hoursHitmap[0].count).toBe(1);
    expect(d6.userStatus.agents).toEqual([{ agent: 'acme-agente', totalHours: Math.round((30 / 3600) * 10_000) / 10_000, totalMs: 30_000 }]);
  });

  it("shows a supervisor only the departments they supervise and those departments' agents (002 §6)", async () => {
    const res = await dashboard(t.tokens.supervisor);
    expect(res.status, res.text).toBe(200);
    const data = res.body.data;
    expect(data.departments.map((d: { id: string }) => d.id)).toEqual(['vendas']);
    expect(data.agents.map((a: { id: string }) => a.id)).toEqual(['acme-agente']);
    const d5 = data.days[0];
    expect(d5.roomDate).toMatchObject({ countRooms: 2, countContacts: 2 });
    expect(d5.roomDate.departmentRooms.map((d: { departmentId: string }) => d.departmentId)).toEqual(['vendas']);
    expect(d5.firstAttend.agents.map((a: { agent: string }) => a.agent)).toEqual(['acme-agente']);
    expect(d5.roomsHoursHeatmap.hoursHitmap[19].count).toBe(1);
    // Asking for another department answers nothing of it.
    const other = await dashboard(t.tokens.supervisor, 'from=2026-01-05&to=2026-01-05&departments=suporte');
    expect(other.status).toBe(200);
    expect(other.body.data.days[0].roomDate.countRooms).toBe(0);
    expect(other.body.data.days[0].firstAttend.agents).toEqual([]);
  });

  it('filters by agents or by departments (mutually exclusive) for an admin', async () => {
    const suporte = await dashboard(t.tokens.admin, 'from=2026-01-05&to=2026-01-05&departments=suporte');
    expect(suporte.body.data.days[0].roomDate).toMatchObject({ countRooms: 1, countContacts: 1 });
    const agent = await dashboard(t.tokens.admin, 'from=2026-01-05&to=2026-01-05&agents=acme-suporte');
    expect(agent.body.data.days[0].firstAttend.agents.map((a: { agent: string }) => a.agent)).toEqual(['acme-suporte']);
  });

  it('refuses the dashboard to users without the permission and bad periods with a pt-BR message', async () => {
    for (const token of [t.tokens.agente, t.tokens.suporte]) expect((await dashboard(token)).status).toBe(403);
    expect((await t.api('/api/dashboard/reports')).status).toBe(401);
    const other = await t.tokenFor('outra', 'outra-admin');
    expect((await t.api('/api/dashboard/reports?from=2026-01-05&to=2026-01-05', { token: other })).status).toBe(401);
    for (const query of ['from=2026-01-05', 'from=2025-01-01&to=2026-01-05', 'from=2026-01-05&to=2026-02-30', 'from=2026-02-01&to=2026-02-02', 'days=8', 'from=2025-11-31&to=2025-12-01']) {
      const res = await dashboard(t.tokens.admin, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errorMessage).toBeTruthy();
    }
    // Swapped dates are reordered.
    const swapped = await dashboard(t.tokens.admin, 'from=2026-01-06&to=2026-01-05');
    expect(swapped.status).toBe(200);
    expect(swapped.body.data).toMatchObject({ from: '2026-01-05', to: '2026-01-06' });
  });

  it('a rebuild from raw data gives identical counters, also after the counters were lost', async () => {
    const reports = t.server.services.reports;
    const before = await reports.counters('acme', '2026-01-01', '2026-01-10');
    expect(before.length).toBeGreaterThan(20);
    await reports.rebuild('acme', '2026-01-01', '2026-01-10');
    expect(await reports.counters('acme', '2026-01-01', '2026-01-10')).toEqual(before);
    await t.server.db('report_daily').where({ tenant_id: 'acme' }).del();
    await t.server.db('report_room_facts').where({ tenant_id: 'acme' }).del();
    await reports.rebuild('acme', '2026-01-04', '2026-01-07');
    expect(await reports.counters('acme', '2026-01-01', '2026-01-10')).toEqual(before);
    // And live maintenance goes on from the rebuilt state: one more answer on R2.
    await t.api(`/api/rooms/${rooms.r2}/message`, { method: 'POST', body: { text: 'Encontrei.' }, token: tokenOf(t, 'acme-suporte') });
    const live = await reports.counters('acme', '2026-01-01', '2026-01-10');
    await reports.rebuild('acme', '2026-01-01', '2026-01-10');
    expect(await reports.counters('acme', '2026-01-01', '2026-01-10')).toEqual(live);
  });

  it('heartbeats written straight to the status table are counted by the rebuild', async () => {
    const statuses = createStatusRepository(t.server.db);
    await statuses.insert(t.server.db, 'acme', 'acme-suporte', 'online', t.clock.now());
    t.clock.advance(MINUTE);
    await statuses.insert(t.server.db, 'acme', 'acme-suporte', 'offline', t.clock.now());
    await t.server.services.reports.rebuild('acme', '2026-01-06', '2026-01-06');
    const res = await dashboard(t.tokens.admin, 'from=2026-01-06&to=2026-01-06');
    expect(byKey(res.body.data.days[0].userStatus.agents, 'agent')['acme-suporte']).toMatchObject({ totalMs: 60_000 });
  });

  it("a transfer through the console's transfer call is counted in its own transaction, and the rebuild agrees", async () => {
    const count = async () => (await dashboard(t.tokens.admin, 'from=2026-01-05&to=2026-01-05')).body.data.days[0].transfers;
    const before = await count();
    await status('acme-agente', 'online'); // a transfer goes to an online agent
    const res = await t.api(`/api/rooms/${rooms.r2}/transfer`, { method: 'PATCH', body: { agents: ['acme-agente'] }, token: tokenOf(t, 'acme-suporte') });
    expect(res.status, res.text).toBe(200);
    const after = await count();
    expect(after.count).toBe(before.count + 1);
    expect(after.agents).toContainEqual({ agent: 'acme-suporte', count: 1 });
    const reports = t.server.services.reports;
    const live = await reports.counters('acme', '2026-01-01', '2026-01-10');
    await reports.rebuild('acme', '2026-01-01', '2026-01-10');
    expect(await reports.counters('acme', '2026-01-01', '2026-01-10')).toEqual(live);
  });

  it("exports the period's chats by e-mail: CSV in the chosen time zone, scoped to the supervisor; JSON for an admin", async () => {
    await moveTo(new Date('2026-01-08T12:00:00.000Z'));
    const post = (token: string, body: Record<string, unknown>) => t.api('/api/dashboard/export', { method: 'POST', body, token });
    // The four validations of the dialog (seed 002 §5).
    const bad = await post(t.tokens.supervisor, {});
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { message: string }) => f.message)).toEqual([
      messages.validation.exportPeriod, messages.validation.exportFileType, messages.validation.exportTimezone, messages.validation.exportReferenceDate,
    ]);
    expect((await post(t.tokens.agente, { period: ['2026-01-05', '2026-01-06'], fileType: 'csv', timezone: 'UTC', reference: 'createdAt' })).status).toBe(403);

    // São Paulo: the 5th runs 03:00Z–02:59Z, so R1 (22:00Z) and R3 (00:30Z on the 6th) are in; R2 is suporte's.
    t.smtp.inbox.length = 0;
    const ok = await post(t.tokens.supervisor, { period: ['2026-01-05', '2026-01-05'], fileType: 'csv', timezone: 'America/Sao_Paulo', timezoneOffset: 180, reference: 'createdAt' });
    expect(ok.status, ok.text).toBe(202);
    expect(ok.body.data).toMatchObject({ status: 'running', email: 'supervisor@acme.test' });
    const mail = await simpleParser((await t.smtp.waitFor('supervisor@acme.test')).raw);
    expect(mail.attachments).toHaveLength(1);
    const csv = mail.attachments[0]!.content.toString('utf8').replace(/^\ufeff/, '').trim().split('\n');
    expect(csv[0]!.split(';').slice(0, 3)).toEqual(['Código', 'Id', 'Canal']);
    expect(csv.slice(1).map((line) => line.split(';')[1]).sort()).toEqual([rooms.r1, rooms.r3].sort());
    expect(csv.find((line) => line.includes(rooms.r1!))).toContain('05/01/2026 - 19:00:00');
    // The CSV reads only the fields it shows (docs/exports.md "Memory"): each still comes out.
    const header = csv[0]!.split(';');
    const r1 = Object.fromEntries(csv.find((line) => line.includes(rooms.r1!))!.split(';').map((v, i) => [header[i], v]));
    expect(r1).toMatchObject({ Contato: 'Cliente 1', Departamento: 'vendas', Etiquetas: 'Venda', Ativo: 'não', Justificativa: 'Resolvido', NPS: '9', 'Encerrado em': '05/01/2026 - 19:20:00' });
    expect(r1.Agentes).not.toBe('');
    expect(r1['Contato (id)']).not.toBe('');
    // The job is 'sent' once the SMTP server has answered (the catcher may store it a moment before).
    const progress = await waitFor(async () => {
      const res = await t.api(`/api/dashboard/export/${ok.body.data.id}`, { token: t.tokens.supervisor });
      return res.body.data.status === 'sent' ? res.body.data : null;
    }, 'export sent');
    expect(progress).toMatchObject({ status: 'sent', rows: 2 });
    expect((await t.api(`/api/dashboard/export/${ok.body.data.id}`, { token: t.tokens.admin })).status).toBe(404);

    // UTC: the 5th is 00:00Z–23:59Z: R1 and R2 for an admin; JSON without the public token.
    const json = await post(t.tokens.admin, { period: ['2026-01-05', '2026-01-05'], fileType: 'json', timezone: 'UTC', reference: 'createdAt' });
    expect(json.status, json.text).toBe(202);
    const adminMail = await simpleParser((await t.smtp.waitFor('admin@acme.test')).raw);
    const list = JSON.parse(adminMail.attachments[0]!.content.toString('utf8')) as { id: string; publicToken?: string }[];
    expect(list.map((r) => r.id).sort()).toEqual([rooms.r1, rooms.r2].sort());
    expect(list.every((r) => r.publicToken === undefined)).toBe(true);

    // exportAdminOnly: only admins may export.
    await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true, exportAdminOnly: true } });
    expect((await post(t.tokens.supervisor, { period: ['2026-01-05', '2026-01-05'], fileType: 'csv', timezone: 'UTC', reference: 'createdAt' })).status).toBe(403);
  });
});

describe('export jobs survive their process (docs/exports.md)', () => {
  const UTC_5TH = { period: ['2026-01-05', '2026-01-05'], fileType: 'csv', timezone: 'UTC', timezoneOffset: 0, reference: 'createdAt' };
  const jobData = { request: UTC_5TH, range: { from: '2026-01-05T00:00:00.000Z', to: '2026-01-05T23:59:59.999Z' } };
  const progress = async (id: string) => (await t.api(`/api/dashboard/export/${id}`, { token: t.tokens.admin })).body.data as { status: string; rows: number };

  /** A job as a process that died mid-run leaves it: claimed, lease running. */
  async function orphan(id: string): Promise<ReturnType<typeof createExportJobRepository>> {
    const jobs = createExportJobRepository(t.server.db);
    await jobs.create('acme', { id, userId: 'acme-admin', email: 'admin@acme.test', request: jobData, departments: null, baseUrl: 'http://acme.test', fileName: 'chats.csv', createdAt: t.clock.now().toISOString() });
    const now = t.clock.now().getTime();
    expect(await jobs.claim(id, 'dead-process', new Date(now).toISOString(), new Date(now + EXPORT_LEASE_MS).toISOString())).toBe(true);
    return jobs;
  }

  it('a job whose process died is taken over when its lease runs out, and mailed once', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    await orphan(id);
    t.smtp.inbox.length = 0;
    const exportsService = t.server.services.reportExports;
    // Progress answers from the database, whichever process asks.
    expect(await progress(id)).toMatchObject({ status: 'running', rows: 0 });
    // While the lease holds, nobody else runs it.
    await exportsService.tick();
    await exportsService.idle();
    expect(await progress(id)).toMatchObject({ status: 'running' });
    expect(t.smtp.inbox.filter((m) => m.to.includes('admin@acme.test'))).toHaveLength(0);

    t.clock.advance(EXPORT_LEASE_MS + 1_000);
    await exportsService.tick();
    await exportsService.idle();
    expect(await progress(id)).toMatchObject({ status: 'sent', rows: 2 });
    const mail = await simpleParser((await t.smtp.waitFor('admin@acme.test')).raw);
    const csv = mail.attachments[0]!.content.toString('utf8').replace(/^\ufeff/, '').trim().split('\n');
    expect(csv.slice(1).map((line) => line.split(';')[1]).sort()).toEqual([rooms.r1, rooms.r2].sort());
    // A later turn finds nothing to do: one mail.
    t.clock.advance(EXPORT_LEASE_MS + 1_000);
    await exportsService.tick();
    await exportsService.idle();
    expect(t.smtp.inbox.filter((m) => m.to.includes('admin@acme.test'))).toHaveLength(1);
  });

  it(`a job that took its process down ${EXPORT_MAX_ATTEMPTS} times is failed, not retried forever`, async () => {
    const id = '22222222-2222-4222-8222-222222222222';
    const jobs = await orphan(id);
    for (let i = 1; i < EXPORT_MAX_ATTEMPTS; i++) {
      t.clock.advance(EXPORT_LEASE_MS + 1_000);
      const now = t.clock.now().getTime();
      expect(await jobs.claim(id, `dead-${i}`, new Date(now).toISOString(), new Date(now + EXPORT_LEASE_MS).toISOString())).toBe(true);
    }
    t.smtp.inbox.length = 0;
    t.clock.advance(EXPORT_LEASE_MS + 1_000);
    await t.server.services.reportExports.tick();
    await t.server.services.reportExports.idle();
    expect(await progress(id)).toMatchObject({ status: 'failed' });
    expect(t.smtp.inbox).toHaveLength(0);
  });

  it('a large export goes as a link on the tenant host that works until it expires; then its file is removed', async () => {
    // A second service on the same database and folder with a tiny attachment limit (EXPORT_ATTACH_MAX_BYTES).
    const small = createDashboardExportService({
      repo: createExportRepository(t.server.db), jobs: createExportJobRepository(t.server.db), mailer: t.server.services.mailer, clock: t.clock,
      logger: createLogger('silent'), dataDir: t.server.config.dataDir, secret: t.server.config.jwtSecret, attachMaxBytes: 10,
    });
    t.smtp.inbox.length = 0;
    const { job } = await small.request({
      tenantId: 'acme', user: { id: 'acme-admin', email: 'admin@acme.test', claims: { admin: true } } as never, supervisorOf: [], exportAdminOnly: false,
      timeZone: 'America/Sao_Paulo', body: UTC_5TH, baseUrl: 'http://acme.test',
    });
    await small.idle();
    const mail = await simpleParser((await t.smtp.waitFor('admin@acme.test')).raw);
    expect(mail.attachments).toHaveLength(0);
    const link = /http:\/\/acme\.test(\/api\/dashboard\/export\/[^\s]+)/.exec(mail.text ?? '')![1]!;
    const download = await t.api(link);
    expect(download.status).toBe(200);
    expect(download.text.split('\n')).toHaveLength(4); // header, R1, R2, final newline
    expect((await t.api(link.replace(/sig=.*/, 'sig=forjada'))).status).toBe(404);
    // The same signed link on another tenant's host finds nothing.
    expect((await t.api(link, { host: t.hosts.outra })).status).toBe(404);

    const dir = path.join(t.server.config.dataDir, 'exports');
    expect(existsSync(path.join(dir, `${job.id}.csv`))).toBe(true);
    t.clock.advance(25 * 3_600_000);
    expect((await t.api(link)).status).toBe(404);
    await t.server.services.reportExports.tick();
    expect(readdirSync(dir).filter((f) => f.startsWith(job.id))).toEqual([]);
    await small.stop();
  });
});

