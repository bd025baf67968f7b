import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@atendimento/server';
import { parse } from 'csv-parse/sync';
import { createSendQueue } from '@atendimento/server/services/campaigns/send-queue';
import { inOneGroup } from '../../helpers/one-group';
import { startWhatsappServer, stopWhatsappServer, type WhatsappTest } from '../whatsapp/whatsapp-helpers';

/**
 * Campaigns (docs/campaigns.md) on the real server and the local Graph server: the upload's
 * row-by-row check, the send queue with a manual clock (pacing, window, pause, throttling,
 * unknown outcomes), monotonic receipts and replies. SQLite, or PostgreSQL with DATABASE_URL.
 */

// Monday 2026-01-05 12:00 in São Paulo (UTC-3).
const clock = new ManualClock(new Date('2026-01-05T15:00:00.000Z'));
let t: WhatsappTest;
let admin: string;

function multipart(content: string, fields: Record<string, string>, fileName = 'campanha.csv') {
  const boundary = '----campanhaBoundary9x';
  let body = '';
  for (const [name, value] of Object.entries(fields)) body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  body += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const fieldsFor = (name: string, extra: Record<string, string> = {}) => ({
  name, channelId: 'wa-meta', template: JSON.stringify({ name: 'boas_vindas', language: 'pt_BR', params: ['nome'] }), tag: 'Campanha Verão', ...extra,
});

function upload(path: '/api/notifications' | '/api/notifications/preview', csv: string, fields: Record<string, string>, token = admin, host?: string) {
  const { body, headers } = multipart(csv, fields);
  return t.api(path, { method: 'POST', token, body, headers, ...(host && { host }) });
}

let seq = 0;
/** A campaign of `n` good rows with fresh numbers; answers its id. */
async function campaignOf(n: number, extra: Record<string, string> = {}): Promise<{ id: string; phones: string[] }> {
  const base = 20_000_000 + (seq++) * 1000;
  const phones = Array.from({ length: n }, (_, i) => `55119${base + i}`);
  const csv = `chatId;nome\n${phones.map((p, i) => `${p};Cliente ${i}`).join('\n')}\n`;
  // The manual clock moves days ahead: a token signed now stays valid.
  admin = await t.tokenFor('acme', 'acme-admin');
  const res = await upload('/api/notifications', csv, fieldsFor(`Campanha ${seq}`, extra));
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.id, phones };
}

const rows = (campaignId: string) => t.server.db('campaign_messages').where({ tenant_id: 'acme', campaign_id: campaignId }).orderBy('row_no');
const queue = () => t.server.services.campaigns.queue;
const sentTo = (phones: string[]) => t.graph.sent.filter((m) => phones.some((p) => p.slice(0, 4) + p.slice(5) === m.to));

/** Runs queue passes until nothing is left to do now (each pass sends one batch per campaign). */
async function drain(max = 50): Promise<void> {
  for (let i = 0; i < max; i++) if ((await queue().tick()) === 0) return;
}

beforeAll(async () => {
  t = await startWhatsappServer({
    clock, autoStatuses: false,
    server: { startCampaigns: false, campaignQueue: { ratePerSecond: 10, sleep: async (ms) => clock.advance(ms), leaseMs: 60_000 } },
  });
  admin = t.tokens.admin;
  const sync = await t.api('/api/cronjob/proccess/syncTemplates', { method: 'POST', token: admin });
  expect(sync.status, sync.text).toBe(200);
  // A blocked contact (seed 000 §4: blockedSending, blockedReceiving or autoBlocked).
  const iso = clock.now().toISOString();
  await t.server.db('contacts').insert({
    id: 'c-bloqueado', tenant_id: 'acme', display_name: 'Bloqueado', phone: '5511977776666', email: null, active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: JSON.stringify({ displayName: 'Bloqueado', phone: '5511977776666', blockedSending: true, channels: ['whatsapp'] }),
  });
});
afterAll(() => stopWhatsappServer(t));

beforeEach(async () => {
  admin = await t.tokenFor('acme', 'acme-admin');
  // Campaigns of earlier tests finished or paused: each test drives its own.
  await t.server.db('campaigns').update({ paused: true });
});

describe('upload: row-by-row check, preview, rejected rows', () => {
  const csv = [
    'chatId;nome;pedido',
    '(11) 98765-4321;Ana;1',
    '5511912345678;Bruno;2',
    '123;Curto;3',
    '11987654321;Ana de novo;4',
    '5511977776666;Bloqueado;5',
    '5521988887777;;6',
    '+1 415 555 0100;Foreign;7',
  ].join('\n');

  it('previews valid rows and each rejection reason in Portuguese; stores nothing', async () => {
    const res = await upload('/api/notifications/preview', csv, fieldsFor('Prévia'));
    expect(res.status, res.text).toBe(200);
    const p = res.body.data;
    expect(p.validCount).toBe(3);
    expect(p.rejectedCount).toBe(4);
    expect(p.rejected.map((r: any) => [r.line, r.reason])).toEqual([
      [4, 'Telefone inválido'],
      [5, 'Número duplicado (mesmo número da linha 2)'],
      [6, 'Contato bloqueado'],
      [7, 'Parâmetro ausente: nome'],
    ]);
    // Normalised chat ids (seed 000 §5: longer than 12 characters lose the fifth) and the rendered text.
    expect(p.sample.map((s: any) => s.chatId)).toEqual(['551187654321', '551112345678', '14155550100']);
    expect(p.sample[0].text).toBe('Olá Ana, aviso 0.');
    const rejected = parse(p.rejectedCsv, { delimiter: ';' }) as string[][];
    expect(rejected[0]).toEqual(['chatId', 'nome', 'pedido', 'linha', 'motivo']);
    expect(rejected.slice(1).map((r) => r[4])).toEqual(['Telefone inválido', 'Número duplicado (mesmo número da linha 2)', 'Contato bloqueado', 'Parâmetro ausente: nome']);
    expect(await t.server.db('campaigns').where({ name: 'Prévia' }).first()).toBeUndefined();
  });

  it('a template parameter without a column is refused on that parameter, not on the template', async () => {
    const res = await upload('/api/notifications/preview', csv, fieldsFor('Sem coluna', { template: JSON.stringify({ name: 'boas_vindas', language: 'pt_BR', params: [''] }) }));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', errorMessage: 'Escolha a coluna do arquivo para este parâmetro.' });
    expect(res.body.fields).toEqual([{ field: 'template.params.0', message: 'Escolha a coluna do arquivo para este parâmetro.' }]);
  });

  it('a file with rejected rows creates nothing until the user confirms the valid part', async () => {
    const refused = await upload('/api/notifications', csv, fieldsFor('Parcial'));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('campaign_has_rejected_rows');
    expect(refused.body.data.validCount).toBe(3);
    expect(await t.server.db('campaigns').where({ name: 'Parcial' }).first()).toBeUndefined();

    const created = await upload('/api/notifications', csv, fieldsFor('Parcial', { confirmValid: 'true' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.counters).toMatchObject({ total: 3, sent: 0 });
    const stored = await rows(created.body.data.id);
    expect(stored.map((r) => [r.row_no, r.chat_id, r.state])).toEqual([[2, '551187654321', 'queued'], [3, '551112345678', 'queued'], [8, '14155550100', 'queued']]);
  });

  it('refuses bad settings with a pt-BR message: template, parameters, channel, missing column, not a CSV', async () => {
    const good = 'chatId;nome\n5511987654321;Ana\n';
    const cases: [Record<string, string>, string][] = [
      [fieldsFor('x', { template: JSON.stringify({ name: 'promo_rejeitada', language: 'pt_BR', params: ['nome', 'nome'] }) }), 'Escolha um template aprovado deste canal.'],
      [fieldsFor('x', { template: JSON.stringify({ name: 'boas_vindas', language: 'pt_BR', params: [] }) }), 'O template "boas_vindas" tem 1 parâmetro(s): escolha uma coluna do arquivo para cada um.'],
      [fieldsFor('x', { channelId: 'wa-zapi' }), 'Escolha um canal WhatsApp ativo com templates (Meta ou 360dialog).'],
      [fieldsFor('x', { template: JSON.stringify({ name: 'boas_vindas', language: 'pt_BR', params: ['cidade'] }) }), 'A coluna "cidade" escolhida para o parâmetro 1 não existe no arquivo.'],
      [fieldsFor('x', { startAt: '25:00' }), 'Formato Invalido (23:59)'],
      [{ channelId: 'wa-meta' }, 'Campo obrigatório'],
    ];
    for (const [fields, message] of cases) {
      const res = await upload('/api/notifications', good, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.errorMessage).toBe(message);
    }
    const noChatId = await upload('/api/notifications', 'fone;nome\n1;a\n', fieldsFor('x'));
    expect(noChatId.body.errorMessage).toBe('O arquivo precisa da coluna "chatId" (número do WhatsApp).');
    const { body, headers } = multipart('chatId\n1\n', fieldsFor('x'), 'planilha.xlsx');
    const notCsv = await t.api('/api/notifications', { method: 'POST', token: admin, body, headers });
    expect(notCsv.status).toBe(400);
  });

  it('serves the static CSV template', async () => {
    const res = await t.api('/api/notifications/csvTemplate', { token: admin });
    expect(res.status).toBe(200);
    expect(res.text.split('\n')[0]).toBe('chatId;displayName;param1;param2;param3');
    const options = await t.api('/api/notifications/options', { token: admin });
    // Cloud API channels with approved pt templates (Meta, 360dialog); Z-API has no templates.
    expect(options.body.data.channels.map((c: any) => c.id).sort()).toEqual(['wa-360', 'wa-meta']);
    expect(options.body.data.templates.every((tpl: any) => tpl.channelId !== 'wa-zapi' && ['pt_BR', 'pt_PT'].includes(tpl.language))).toBe(true);
    expect(options.body.data.templates.some((tpl: any) => tpl.name === 'boas_vindas')).toBe(true);
  });
});

describe('send queue with a manual clock', () => {
  it('sends each row once, paced at the channel rate, provider id recorded with done', async () => {
    const { id, phones } = await campaignOf(6);
    await drain();
    const stored = await rows(id);
    expect(stored.every((r) => r.state === 'done' && r.provider_id && r.status_rank === 1)).toBe(true);
    expect(sentTo(phones)).toHaveLength(6);
    // Callback data carries the job key (a receipt finds the job even before the send's answer).
    expect(sentTo(phones).map((m) => m.body.biz_opaque_callback_data).sort()).toEqual(stored.map((r) => `cmp:${r.id}`).sort());
    // 10 msg/s: 100 ms between sends on the controlled clock.
    const times = stored.map((r) => Date.parse(r.sent_at)).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
    expect(times.at(-1)! - times[0]!).toBeLessThan(1000);
    const detail = await t.api(`/api/notifications/${id}`, { token: admin });
    expect(detail.body.data).toMatchObject({ proccessed: true, counters: { total: 6, sent: 6, done: 6, error: 0 } });
    // A processed campaign can be neither paused nor unpaused.
    const patch = await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: admin, body: { paused: true } });
    expect(patch.status).toBe(409);
  });

  it('sends only inside the window (hours, commercial time, weekends) in the tenant time zone', async () => {
    const { id } = await campaignOf(2, { startAt: '13:00', endAt: '14:00' });
    await drain();
    expect((await rows(id)).every((r) => r.state === 'queued')).toBe(true);
    // Move to 13:00 local (clock is past 12:00 after earlier sends): the window opens.
    const now = clock.now().getTime();
    clock.advance(Date.parse('2026-01-05T16:00:30.000Z') - now);
    await drain();
    expect((await rows(id)).every((r) => r.state === 'done')).toBe(true);

    // Saturday, inside commercial hours but weekEnd=false.
    clock.advance(Date.parse('2026-01-10T14:00:00.000Z') - clock.now().getTime());
    const weekend = await campaignOf(1, { weekEnd: 'false' });
    await drain();
    expect((await rows(weekend.id))[0].state).toBe('queued');
    clock.advance(Date.parse('2026-01-12T12:00:00.000Z') - clock.now().getTime()); // Monday 09:00 local
    await drain();
    expect((await rows(weekend.id))[0].state).toBe('done');
  });

  it('pause holds within a second even mid-batch; unpause resumes without sending anything twice', async () => {
    const { id, phones } = await campaignOf(10);
    // Pause once the clock has moved 150 ms into the batch: the queue re-reads the flag every 200 ms.
    const started = clock.now().getTime();
    let paused = false;
    const service = t.server.services.campaigns.service;
    const original = clock.advance.bind(clock);
    clock.advance = (ms: number) => {
      original(ms);
      if (!paused && clock.now().getTime() - started >= 150) {
        paused = true;
        void service.setPaused('acme', id, { paused: true });
      }
    };
    try {
      await queue().tick();
    } finally {
      clock.advance = original;
    }
    const during = (await rows(id)).filter((r) => r.state === 'done').length;
    expect(during).toBeGreaterThan(0);
    expect(during).toBeLessThan(10);
    clock.advance(5_000);
    await drain();
    expect((await rows(id)).filter((r) => r.state === 'done')).toHaveLength(during);

    const res = await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: admin, body: { paused: false } });
    expect(res.status).toBe(200);
    expect(res.body.data.paused).toBe(false);
    await drain();
    expect((await rows(id)).every((r) => r.state === 'done')).toBe(true);
    expect(sentTo(phones)).toHaveLength(10);
    expect(new Set(sentTo(phones).map((m) => m.to)).size).toBe(10);
  });

  it('backs off on 130429 and finishes with no failure from throttling; client errors fail without retry', async () => {
    const { id, phones } = await campaignOf(8);
    t.graph.throttleNext(3);
    const before = t.graph.throttled;
    await drain();
    clock.advance(10_000);
    await drain();
    expect(t.graph.throttled - before).toBe(3);
    const stored = await rows(id);
    expect(stored.every((r) => r.state === 'done' && !r.failed)).toBe(true);
    expect(sentTo(phones)).toHaveLength(8);

    const bad = await campaignOf(1);
    t.graph.failNext(131026, 'Message undeliverable', 400);
    await drain();
    const [row] = await rows(bad.id);
    expect(row).toMatchObject({ state: 'failed', attempts: 1 });
    const table = await t.api(`/api/notifications/${bad.id}/messages`, { token: admin });
    expect(table.body.data[0].statusText).toBe('Erro: Mensagem não entregue: número sem WhatsApp ou versão desatualizada');
  });

  it('an unknown outcome waits for a receipt with its key; without one the lease sends it again', async () => {
    const { id, phones } = await campaignOf(2);
    const [a, b] = await rows(id);
    // As a process killed between claiming and hearing the answer leaves them.
    await t.server.db('campaign_messages').where({ tenant_id: 'acme', id: a.id }).update({ state: 'sending', claimed_at: clock.now().toISOString(), attempts: 1 });
    await t.server.db('campaign_messages').where({ tenant_id: 'acme', id: b.id }).update({ state: 'sending', claimed_at: clock.now().toISOString(), attempts: 1 });
    // The provider had `a`: its 'sent' receipt carries the key.
    const raw = Buffer.from(JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: 'PN1' }, statuses: [{ id: 'wamid.antes', status: 'sent', timestamp: String(Math.floor(clock.now().getTime() / 1000)), recipient_id: a.chat_id, biz_opaque_callback_data: `cmp:${a.id}` }] } }] }],
    }));
    expect((await t.postMeta('wa-meta', raw)).status).toBe(200);
    await drain();
    expect(sentTo(phones)).toHaveLength(0);
    clock.advance(61_000);
    await drain();
    const after = await rows(id);
    expect(after.map((r) => [r.state, r.provider_id === 'wamid.antes'])).toEqual([['done', true], ['done', false]]);
    expect(sentTo(phones).map((m) => m.to)).toEqual([b.chat_id]);
  });
});

describe('several processes share the queue', () => {
  it('three workers on one database send every row exactly once (PostgreSQL: SKIP LOCKED claims, one pacing row)', async () => {
    const { id, phones } = await campaignOf(60);
    const { campaigns, chat } = t.server.services;
    // Workers as separate processes would run them: their own queue, the same tables.
    const workers = [0, 1, 2].map(() => createSendQueue({
      repo: campaigns.repo, providers: chat.providers, clock, logger: t.server.logger, publicUrl: 'http://localhost', touched: () => {},
    }, { ratePerSecond: 1000, sleep: async () => {} }));
    for (let round = 0; round < 20 && (await rows(id)).some((r) => r.state !== 'done'); round++) {
      await Promise.all(workers.map((w) => w.tick()));
    }
    expect((await rows(id)).every((r) => r.state === 'done')).toBe(true);
    expect(sentTo(phones)).toHaveLength(60);
    expect(new Set(sentTo(phones).map((m) => m.body.biz_opaque_callback_data)).size).toBe(60);
  });

  it("a failed write of the provider's answers is tried again: the job is done with its id and the lease never sends it twice", async () => {
    const { id, phones } = await campaignOf(3);
    const { campaigns, chat } = t.server.services;
    let failures = 0;
    // As PostgreSQL aborts a deadlock's victim (CI: the answers' transaction against a lease renewal).
    const repo = Object.assign(Object.create(campaigns.repo), {
      async acceptedMany(...args: Parameters<typeof campaigns.repo.acceptedMany>) {
        if (failures++ < 2) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        return campaigns.repo.acceptedMany(...args);
      },
    }) as typeof campaigns.repo;
    const worker = createSendQueue({ repo, providers: chat.providers, clock, logger: t.server.logger, publicUrl: 'http://localhost', touched: () => {} },
      { ratePerSecond: 10, leaseMs: 1_000, sleep: async (ms) => clock.advance(ms) });
    await worker.tick();
    expect(failures).toBeGreaterThan(2);
    const stored = await rows(id);
    const byKey = new Map(sentTo(phones).map((m) => [m.body.biz_opaque_callback_data, m.id]));
    expect(stored.map((r) => [r.state, r.provider_id === byKey.get(`cmp:${r.id}`)])).toEqual(Array.from({ length: 3 }, () => ['done', true]));
    // Past the lease nothing is left to recover: not one of them goes out again.
    clock.advance(5_000);
    for (let i = 0; i < 5 && (await worker.tick()) > 0; i++);
    expect(sentTo(phones)).toHaveLength(3);
  });

  it('a worker stalled past its lease sends nothing another worker recovered and sent meanwhile', async () => {
    const { id, phones } = await campaignOf(4);
    const { campaigns, chat } = t.server.services;
    const deps = { repo: campaigns.repo, providers: chat.providers, clock, logger: t.server.logger, publicUrl: 'http://localhost', touched: () => {} };
    const b = createSendQueue(deps, { ratePerSecond: 10, leaseMs: 1_000, sleep: async (ms) => clock.advance(ms) });
    let stalled = false;
    const a = createSendQueue(deps, {
      // A starved process: its timers do not fire either (no renewal while B works).
      ratePerSecond: 10, leaseMs: 1_000, renewEveryMs: 600_000,
      sleep: async (ms) => {
        clock.advance(ms);
        if (stalled) return;
        stalled = true;
        // A starved process: A holds its claimed batch past the lease; B recovers and sends it.
        clock.advance(5_000);
        for (let i = 0; i < 10 && (await b.tick()) > 0; i++);
      },
    });
    // The channel's next slot is ahead, so A waits (and stalls) before its first send.
    await t.server.db('campaign_pacing').where({ tenant_id: 'acme', channel_id: 'wa-meta' }).delete();
    await t.server.db('campaign_pacing').insert({ tenant_id: 'acme', channel_id: 'wa-meta', next_slot_at: new Date(clock.now().getTime() + 500).toISOString(), throttled_until: null, throttle_level: 0 });
    await a.tick();
    expect(stalled).toBe(true);
    expect(sentTo(phones)).toHaveLength(4);
    expect(new Set(sentTo(phones).map((m) => m.body.biz_opaque_callback_data)).size).toBe(4);
    const after = await rows(id);
    expect(after.map((r) => [r.state, r.claimed_by === b.worker])).toEqual(Array.from({ length: 4 }, () => ['done', true]));
  });
});

describe('receipts and replies', () => {
  it('statuses move forward only; failed only before delivery; counters and texts follow', async () => {
    const { id } = await campaignOf(3);
    await drain();
    const [a, b, c] = await rows(id);
    await t.graph.postStatus(a.provider_id, a.chat_id, 'read');
    await t.graph.postStatus(a.provider_id, a.chat_id, 'delivered');
    await t.graph.postStatus(a.provider_id, a.chat_id, 'failed', [{ code: 131026, title: 'Message undeliverable' }]);
    await t.graph.postStatus(b.provider_id, b.chat_id, 'delivered');
    await t.graph.postStatus(c.provider_id, c.chat_id, 'failed', [{ code: 131026, title: 'Message undeliverable' }]);
    await t.graph.postStatus(c.provider_id, c.chat_id, 'read');
    const counters = await t.api(`/api/notifications/counters/${id}`, { token: admin });
    expect(counters.body.data).toMatchObject({ total: 3, sent: 3, delivered: 2, read: 1, error: 1 });
    const table = await t.api(`/api/notifications/${id}/messages`, { token: admin });
    expect(Object.fromEntries(table.body.data.map((m: any) => [m.row, m.statusText]))).toEqual({
      [a.row_no]: 'Lido', [b.row_no]: 'Entregue', [c.row_no]: 'Erro: Mensagem não entregue: número sem WhatsApp ou versão desatualizada',
    });
    const errors = await t.api(`/api/notifications/${id}/messages?status=error`, { token: admin });
    expect(errors.body.meta.total).toBe(1);
    const csv = await t.api(`/api/notifications/${id}/messages.csv`, { token: admin });
    expect(csv.text.split('\n')[0]).toBe('Nome;Número;Status;Resposta');
  });

  it('a reply counts as interacted, a button as clicked; the chat gets the tag and a note naming the campaign', async () => {
    const { id } = await campaignOf(2, { defaultReply: 'Obrigado pelo retorno!' });
    await drain();
    const [a, b] = await rows(id);
    await t.graph.customerSays({ phone: a.chat_id, name: 'Cliente 0' }, { type: 'text', text: { body: 'Quero saber mais' } });
    await t.graph.customerSays({ phone: b.chat_id, name: 'Cliente 1' }, { type: 'button', button: { text: 'Sim', payload: 'sim' } });
    const after = await rows(id);
    expect(after.map((r) => [r.interacted, r.clicked, r.answer]).map(([i, c, ans]) => [Boolean(i), Boolean(c), ans])).toEqual([[true, false, 'Quero saber mais'], [true, true, 'Sim']]);
    const room = await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: a.chat_id }).first();
    const data = typeof room.data === 'string' ? JSON.parse(room.data) : room.data;
    expect(data.tagsNames).toContain('Campanha Verão');
    const notes = await t.server.db('messages').where({ tenant_id: 'acme', room_id: room.id });
    const texts = notes.map((m) => (typeof m.data === 'string' ? JSON.parse(m.data) : m.data).text);
    expect(texts.some((x: string) => x?.startsWith('Resposta à campanha "Campanha'))).toBe(true);
    expect(texts).toContain('Obrigado pelo retorno!');
    const counters = await t.api(`/api/notifications/counters/${id}`, { token: admin });
    expect(counters.body.data).toMatchObject({ interacted: 2, clicked: 1 });
    // The conversation goes on: no second note, no second default reply, the first answer kept.
    await t.graph.customerSays({ phone: a.chat_id, name: 'Cliente 0' }, { type: 'text', text: { body: 'Qual o prazo de entrega?' } });
    const later = (await t.server.db('messages').where({ tenant_id: 'acme', room_id: room.id })).map((m) => (typeof m.data === 'string' ? JSON.parse(m.data) : m.data).text as string);
    expect(later).toContain('Qual o prazo de entrega?');
    expect(later.filter((x) => x?.startsWith('Resposta à campanha "Campanha'))).toHaveLength(1);
    expect(later.filter((x) => x === 'Obrigado pelo retorno!')).toHaveLength(1);
    expect((await rows(id)).map((r) => r.answer)).toEqual(['Quero saber mais', 'Sim']);
  });
});

describe('replies in one group commit (docs/ingest.md "Read-ahead")', () => {
  it("the campaign's customers get its tag and note, the others none; the group asks which chats have a campaign once", async () => {
    const { id } = await campaignOf(2);
    await drain();
    const [a, b] = await rows(id);
    const channel = (await t.server.services.chat.deps.directory.channel('acme', 'wa-meta'))!;
    const say = (phone: string, body: string) => t.server.services.chat.ingest.ingestInbound('acme', channel, [{
      externalId: `wamid.grupo.${phone}.${body.length}`, timestamp: clock.now().toISOString(),
      contact: { phone, userId: null, displayName: `Cliente ${phone}` }, content: { type: 'text', text: body },
    }]);
    const others = ['5511955550001', '5511955550002', '5511955550003'];
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => void (/from [`"]campaign_messages[`"]/.test(q.sql) && /^select/.test(q.sql) && sql.push(q.sql));
    t.server.db.on('query', onQuery);
    try {
      const results = await inOneGroup(t.server.services.changes, 5, () => [say(others[0]!, 'Oi'), say(a.chat_id, 'Quero a oferta'), say(others[1]!, 'Bom dia'), say(b.chat_id, 'Eu também'), say(others[2]!, 'Olá')]);
      expect(results.flat().map((r) => r.created)).toEqual([true, true, true, true, true]);
    } finally {
      t.server.db.off('query', onQuery);
    }
    const after = await rows(id);
    expect(after.map((r) => [Boolean(r.interacted), r.answer])).toEqual([[true, 'Quero a oferta'], [true, 'Eu também']]);
    const tagsOf = async (phone: string) => {
      const room = await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: phone, active: true }).first();
      return (typeof room.data === 'string' ? JSON.parse(room.data) : room.data).tagsNames as string[];
    };
    expect(await tagsOf(a.chat_id)).toContain('Campanha Verão');
    expect(await tagsOf(b.chat_id)).toContain('Campanha Verão');
    for (const phone of others) expect(await tagsOf(phone), phone).not.toContain('Campanha Verão');
    // One read-ahead for the five chats, then the campaign's own lookup for its two customers only.
    expect(sql.filter((q) => /distinct/i.test(q)), sql.join('\n')).toHaveLength(1);
    expect(sql.filter((q) => !/distinct/i.test(q)), sql.join('\n')).toHaveLength(2);
  });
});

describe("the campaign's flow (docs/flows.md)", () => {
  it('a reply to a campaign with a flow hands the new chat to the bot with that flow; an unknown flow is refused at upload', async () => {
    const iso = clock.now().toISOString();
    await t.server.db('documents').insert({ id: 'flow-ofertas', tenant_id: 'acme', collection: 'flows', title: 'Ofertas de verão', active: true, owner_id: null, data: JSON.stringify({ id: 'flow-ofertas', name: 'Ofertas de verão', active: true }), created_at: iso, updated_at: iso, deleted_at: null });
    const options = await t.api('/api/notifications/options', { token: admin });
    expect(options.body.data.flows).toContainEqual({ id: 'flow-ofertas', name: 'Ofertas de verão' });
    const bad = await upload('/api/notifications', 'chatId;nome\n5511912345678;Ana\n', fieldsFor('Sem fluxo', { flow: 'nao-existe' }));
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'flow', message: 'Fluxo não encontrado: escolha um fluxo ativo do cadastro Fluxos.' }]);

    const { id } = await campaignOf(1, { flow: 'flow-ofertas' });
    await drain();
    const [a] = await rows(id);
    await t.graph.customerSays({ phone: a.chat_id, name: 'Cliente 0' }, { type: 'text', text: { body: 'Tenho interesse' } });
    const room = await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: a.chat_id }).first();
    const data = typeof room.data === 'string' ? JSON.parse(room.data) : room.data;
    expect(room.destination).toBe('bot');
    expect(data.flow).toEqual({ id: 'flow-ofertas', name: 'Ofertas de verão' });
    expect(data.agents).toEqual([]);
    const notes = await t.server.db('messages').where({ tenant_id: 'acme', room_id: room.id });
    expect(notes.map((m) => (typeof m.data === 'string' ? JSON.parse(m.data) : m.data).text)).toContain('Chat entregue ao bot para o fluxo "Ofertas de verão" da campanha.');
    // The bot reports its run of that flow in the chat; the dashboard counts it.
    await t.patchAppConfig({ api: true });
    const run = await t.api('/api/flow-runs', { method: 'POST', token: admin, body: { runId: `cmp-${id}`, roomId: room.id, flowId: 'flow-ofertas', completed: true, results: { interesse: 'sim' } } });
    expect(run.status, run.text).toBe(201);
  });
});

describe('who may do it', () => {
  it('admin and the notifications claim; not an agent without it, a stranger, or another tenant', async () => {
    const { id } = await campaignOf(1);
    const agent = await t.tokenFor('acme', 'acme-agente');
    const user = await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-suporte' }).first();
    const data = typeof user.data === 'string' ? JSON.parse(user.data) : user.data;
    await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-suporte' }).update({ data: JSON.stringify({ ...data, claims: { ...(data.claims ?? {}), notifications: true } }) });
    const claimed = await t.tokenFor('acme', 'acme-suporte');
    const other = await t.tokenFor('outra', 'outra-admin');
    const csv = 'chatId;nome\n5511911112222;A\n';

    expect((await t.api('/api/notifications', { token: agent })).status).toBe(403);
    expect((await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: agent, body: { paused: true } })).status).toBe(403);
    expect((await upload('/api/notifications', csv, fieldsFor('Agente'), agent)).status).toBe(403);
    expect((await t.api('/api/notifications')).status).toBe(401);

    expect((await t.api('/api/notifications', { token: claimed })).status).toBe(200);
    expect((await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: claimed, body: { paused: false } })).status).toBe(200);
    expect((await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: claimed, body: { paused: 'sim' } })).status).toBe(400);

    expect((await t.api(`/api/notifications/${id}`, { token: other, host: t.hosts.outra })).status).toBe(404);
    expect((await t.api(`/api/notifications/${id}`, { method: 'PATCH', token: other, host: t.hosts.outra, body: { paused: true } })).status).toBe(404);
    const list = await t.api('/api/notifications', { token: other, host: t.hosts.outra });
    expect(list.body.data).toEqual([]);
  });

  it('lists newest first; external notifications only with the toggle', async () => {
    const iso = new Date(clock.now().getTime() + 1000).toISOString();
    await t.server.db('campaigns').insert({ tenant_id: 'acme', id: 'externa-1', name: 'Notificação externa', channel_id: 'wa-meta', paused: true, proccessed: true, campaign: false, total: 0, data: '{}', created_at: iso, updated_at: iso });
    const off = await t.api('/api/notifications?limit=100', { token: admin });
    expect(off.body.data.some((c: any) => c.id === 'externa-1')).toBe(false);
    const dates = off.body.data.map((c: any) => c.lifeControl.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const on = await t.api('/api/notifications?external=true&limit=100', { token: admin });
    expect(on.body.data[0].id).toBe('externa-1');
    // A bad page names the parameter that is wrong.
    for (const [query, field] of [['offset=-5', 'offset'], ['limit=0', 'limit'], ['limit=101&offset=-1', 'limit']] as const) {
      const bad = await t.api(`/api/notifications?${query}`, { token: admin });
      expect(bad.status, query).toBe(400);
      expect(bad.body.fields.map((f: { field: string }) => f.field), query).toEqual([field]);
    }
  });
});
