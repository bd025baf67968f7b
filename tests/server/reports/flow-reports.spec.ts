import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '@atendimento/server/db/knex';
import { messages } from '@atendimento/schemas';
import { startRoutingServer, stopRoutingServer, type RoutingTest } from '../routing/routing-helpers';
import { visitorStarts } from '../chat/chat-helpers';

/**
 * Flow runs reported by a bot and the dashboard's flow reports (docs/flows.md, seed 002 §3
 * "flows", "flow results"). A bot with an API token reports runs in three chats of 05/01
 * (São Paulo), one of them at 21:30 local — already the 6th in UTC, still the 5th here.
 *
 * | run | chat (department) | flow    | reports                                   | counted as                     |
 * | a   | R1 (vendas)       | triagem | started, then completed {motivo: Financeiro, resolvido: sim}, then 'started' again | completed, expected |
 * | b   | R2 (suporte)      | triagem | completed {motivo: Suporte, resolvido: não} | completed, not expected        |
 * | c   | R3 (vendas) 21:30 | boleto  | started {motivo: Financeiro}               | started only (boleto has no expected result) |
 */
let t: RoutingTest;
let bot: string;
const START = new Date('2026-01-05T21:00:00.000Z'); // 18:00 in São Paulo
const rooms: Record<string, string> = {};

const report = (token: string, query = 'from=2026-01-05&to=2026-01-06') => t.api(`/api/dashboard/reports?${query}`, { token });
const postRun = (body: unknown, token = bot, host?: string) => t.api('/api/flow-runs', { method: 'POST', body, token, host });

beforeAll(async () => {
  t = await startRoutingServer(START);
  const iso = START.toISOString();
  const flow = (id: string, name: string, extra: Record<string, unknown> = {}) =>
    ({ id, tenant_id: 'acme', collection: 'flows', data: toJson({ id, name, active: true, ...extra }), created_at: iso, updated_at: iso, deleted_at: null });
  await t.server.db('documents').insert([
    flow('triagem', 'Triagem inicial', { expectedResult: { name: 'resolvido', value: 'sim' } }),
    flow('boleto', 'Segunda via de boleto'),
  ]);
  await t.patchAppConfig({ api: true });
  const token = await t.api('/api/api-tokens', { method: 'POST', token: t.tokens.admin, body: { id: 'bot', urls: ['/api/flow-runs'], methods: ['POST'] } });
  expect(token.status, token.text).toBe(201);
  bot = token.body.data.token;

  t.clock.advance(60 * 60_000); // 19:00
  rooms.r1 = (await visitorStarts(t, 'site-vendas', 'Preciso da segunda via', 'Cliente 1')).roomId!;
  rooms.r2 = (await visitorStarts(t, 'site-suporte', 'Meu pedido não chegou', 'Cliente 2')).roomId!;
  t.clock.advance(150 * 60_000); // 21:30
  rooms.r3 = (await visitorStarts(t, 'site-vendas', 'Boa noite', 'Cliente 3')).roomId!;
  t.clock.advance(180 * 60_000); // 00:30 on the 6th: the report may ask for 'today'
}, 60_000);
afterAll(() => stopRoutingServer(t));

describe('flow runs (POST /api/flow-runs)', () => {
  it('records a run once per runId: 201, then 200 as it completes; completion never goes back', async () => {
    const started = await postRun({ runId: 'a', roomId: rooms.r1, flowId: 'triagem' });
    expect(started.status, started.text).toBe(201);
    expect(started.body.data).toMatchObject({ id: 'a', roomId: rooms.r1, flowId: 'triagem', completed: false, results: {} });
    const done = await postRun({ runId: 'a', roomId: rooms.r1, flowId: 'triagem', completed: true, results: { motivo: ' Financeiro ', resolvido: 'sim' } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({ completed: true, results: { motivo: 'Financeiro', resolvido: 'sim' } });
    // A late 'started' retry of the same run (out of order) keeps it completed.
    const late = await postRun({ runId: 'a', roomId: rooms.r1, flowId: 'triagem', completed: false });
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ completed: true, results: { motivo: 'Financeiro', resolvido: 'sim' } });

    expect((await postRun({ runId: 'b', roomId: rooms.r2, flowId: 'triagem', completed: true, results: { motivo: 'Suporte', resolvido: 'não' } })).status).toBe(201);
    expect((await postRun({ runId: 'c', roomId: rooms.r3, flowId: 'boleto', results: { motivo: 'Financeiro' } })).status).toBe(201);
  });

  it('refuses bad reports with a 4xx in Portuguese and changes nothing', async () => {
    const missing = await postRun({ roomId: rooms.r1, flowId: 'triagem' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'validation_failed', fields: [{ field: 'runId', message: messages.validation.requiredField }] });
    expect((await postRun({ runId: 'x', roomId: rooms.r1, flowId: 'triagem', results: { motivo: { nested: true } } })).status).toBe(400);
    expect((await postRun({ runId: 'x', roomId: rooms.r1, flowId: 'triagem', results: { 'linha\nquebrada': 'a' } })).status).toBe(400);
    expect((await postRun('não é json')).status).toBe(400);

    const flow = await postRun({ runId: 'x', roomId: rooms.r1, flowId: 'nao-existe' });
    expect(flow.status).toBe(400);
    expect(flow.body.fields).toEqual([{ field: 'flowId', message: messages.flows.flowNotFound }]);
    const room = await postRun({ runId: 'x', roomId: 'sala-inexistente', flowId: 'triagem' });
    expect(room.status).toBe(404);
    expect(room.body).toEqual({ error: 'room_not_found', errorMessage: messages.flows.roomNotFound });
    const moved = await postRun({ runId: 'a', roomId: rooms.r2, flowId: 'triagem' });
    expect(moved.status).toBe(409);
    expect(moved.body).toEqual({ error: 'flow_run_mismatch', errorMessage: messages.flows.runMismatch });
    expect(await t.server.db('flow_runs').where({ tenant_id: 'acme', id: 'x' }).first()).toBeUndefined();
  });

  it('is an admin write: agents, supervisors, a stranger and another tenant cannot report runs', async () => {
    const body = { runId: 'y', roomId: rooms.r1, flowId: 'triagem', completed: true };
    expect((await postRun(body, t.tokens.agente)).status).toBe(403);
    expect((await postRun(body, t.tokens.supervisor)).status).toBe(403);
    // As the public sign-up creates a user: no claim, no department.
    await t.server.repos.users.create('acme', { id: 'acme-estranho', email: 'estranho@acme.test', displayName: 'Estranho', passwordHash: null, type: 'agent', active: true, emailVerified: false }, t.clock.now());
    expect((await postRun(body, await t.tokenFor('acme', 'acme-estranho'))).status).toBe(403);
    // The bot's token on another tenant's host does not exist there; that tenant's admin
    // cannot reach this tenant's chat either.
    expect((await postRun(body, bot, t.hosts.outra)).status).toBe(401);
    const otherAdmin = await t.tokenFor('outra', 'outra-admin');
    expect((await postRun(body, otherAdmin, t.hosts.outra)).status).toBe(404);
    // The token's scope is its URLs: it cannot read the dashboard.
    expect((await report(bot)).status).toBe(403);
    expect(await t.server.db('flow_runs').where({ tenant_id: 'acme', id: 'y' }).first()).toBeUndefined();
  });
});

describe('flow reports', () => {
  it("counts runs on the chat's local day: started, completed, expected result and each result value", async () => {
    const res = await report(t.tokens.admin);
    expect(res.status, res.text).toBe(200);
    const [d5, d6] = res.body.data.days;
    const byId = (list: { id: string }[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(d5.flows.flows)).toEqual([
      { id: 'boleto', name: 'Segunda via de boleto', count: 1, completed: 0, expected: null },
      { id: 'triagem', name: 'Triagem inicial', count: 2, completed: 2, expected: 1 },
    ]);
    const results = [...d5.flowResults.results].sort((a: { flowId: string; title: string }, b: { flowId: string; title: string }) => `${a.flowId}/${a.title}`.localeCompare(`${b.flowId}/${b.title}`));
    expect(results).toEqual([
      { flowId: 'boleto', flowName: 'Segunda via de boleto', title: 'motivo', labels: ['Financeiro'], results: [1] },
      { flowId: 'triagem', flowName: 'Triagem inicial', title: 'motivo', labels: ['Financeiro', 'Suporte'], results: [1, 1] },
      { flowId: 'triagem', flowName: 'Triagem inicial', title: 'resolvido', labels: ['não', 'sim'], results: [1, 1] },
    ]);
    expect(d6.flows.flows).toEqual([]);
    expect(d6.flowResults.results).toEqual([]);
  });

  it("shows a supervisor only their departments' runs", async () => {
    const res = await report(t.tokens.supervisor, 'from=2026-01-05&to=2026-01-05');
    expect(res.status, res.text).toBe(200);
    const flows = [...res.body.data.days[0].flows.flows].sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
    // vendas only: run a (triagem, R1) and run c (boleto, R3); run b was in suporte.
    expect(flows).toEqual([
      { id: 'boleto', name: 'Segunda via de boleto', count: 1, completed: 0, expected: null },
      { id: 'triagem', name: 'Triagem inicial', count: 1, completed: 1, expected: 1 },
    ]);
  });

  it('reads the expected result from the flow now: editing it re-reads past days', async () => {
    await t.server.db('documents').where({ tenant_id: 'acme', id: 'triagem' }).update({ data: toJson({ id: 'triagem', name: 'Triagem inicial', active: true, expectedResult: { name: 'resolvido', value: 'não' } }) });
    const res = await report(t.tokens.admin, 'from=2026-01-05&to=2026-01-05');
    expect(res.body.data.days[0].flows.flows.find((f: { id: string }) => f.id === 'triagem')).toMatchObject({ count: 2, expected: 1 });
    await t.server.db('documents').where({ tenant_id: 'acme', id: 'triagem' }).update({ data: toJson({ id: 'triagem', name: 'Triagem inicial', active: true }) });
    const none = await report(t.tokens.admin, 'from=2026-01-05&to=2026-01-05');
    expect(none.body.data.days[0].flows.flows.find((f: { id: string }) => f.id === 'triagem')).toMatchObject({ count: 2, expected: null });
  });

  it("keeps a chat's runs when the chat changes, under its department now", async () => {
    // An ordinary room write (here: the chat moves to suporte) re-files it without reading its runs.
    await t.server.services.changes.transaction('acme', async (trx, record) => {
      await trx('rooms').where({ tenant_id: 'acme', id: rooms.r1 }).update({ department_id: 'suporte' });
      record({ collection: 'rooms', id: rooms.r1!, op: 'upsert' });
    });
    const all = await report(t.tokens.admin, 'from=2026-01-05&to=2026-01-05');
    expect(all.body.data.days[0].flows.flows.find((f: { id: string }) => f.id === 'triagem')).toMatchObject({ count: 2, completed: 2 });
    const vendas = await report(t.tokens.supervisor, 'from=2026-01-05&to=2026-01-05');
    expect(vendas.body.data.days[0].flows.flows.map((f: { id: string }) => f.id)).toEqual(['boleto']);
  });

  it('a rebuild from raw data gives identical flow counters', async () => {
    const reports = t.server.services.reports;
    const before = await reports.counters('acme', '2026-01-04', '2026-01-07');
    expect(before.filter((c: { kind: string }) => c.kind === 'flow' || c.kind === 'flowResult').length).toBeGreaterThan(0);
    await t.server.db('report_daily').where({ tenant_id: 'acme' }).whereIn('kind', ['flow', 'flowResult']).delete();
    await reports.rebuild('acme', '2026-01-04', '2026-01-07');
    expect(await reports.counters('acme', '2026-01-04', '2026-01-07')).toEqual(before);
  });
});
