import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message } from '@atendimento/schemas';
import { parseJson } from '@atendimento/server/db/knex';
import { waitFor } from '../../helpers/wait-for';
import { settle, socketAs, subscribe, waitForRecord } from '../chat/chat-helpers';
import { customerMail, MAIL_CHANNEL, MAILBOX, roomOf, startMailServer, stopMailServer, storedByMailId, waitForMail, type MailTest } from './mail-helpers';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../integrations/fixtures/email');

let t: MailTest;
beforeAll(async () => {
  t = await startMailServer();
});
afterAll(() => stopMailServer(t));

async function reply(token: string, roomId: string, messageId: string, body: Record<string, unknown>) {
  return t.api(`/api/mail/${roomId}/${messageId}`, { method: 'POST', body: { clientId: randomUUID(), ...body }, token });
}

async function messagesOf(token: string, roomId: string): Promise<Message[]> {
  const res = await t.api(`/api/rooms/${roomId}/messages?limit=200`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Message[]).reverse();
}

const ids = (header: unknown): string[] => [...String(header ?? '').matchAll(/<([^>]+)>/g)].map((m) => m[1]!);

describe('the e-mail channel against a real IMAP server', () => {
  it('threads 5 mails in and 3 replies out in one conversation, in our store and in the mailbox (References chain)', async () => {
    const agente = t.tokens.agente;
    const ws = await socketAs(t, agente);
    await subscribe(ws, 'inbox', 'rooms', { tab: 'mailChats' });

    const in1 = await customerMail({ subject: 'Pedido 123 atrasado', text: 'Meu pedido não chegou.' });
    await t.imap.append(MAILBOX, in1.raw);
    const first = await waitForMail(t, in1.messageId);
    const roomId = first.roomId;
    // Live in 'Inbox' (queued mail of vendas' queue).
    await waitForRecord(ws, 'inbox', (r: { id: string }) => r.id === roomId, 'the new thread in Inbox');
    const room = await roomOf(t, agente, roomId);
    expect(room.channel).toBe('mail');
    expect(room.subject).toBe('Pedido 123 atrasado');
    expect(room.chatId).toBe('cliente@cliente.example');

    // Reply 1 (answering from 'Inbox' takes the chat: it moves to 'Meu Inbox').
    const out1 = await reply(agente, roomId, first.id, { message: '<p>Olá! <strong>Vamos verificar.</strong></p>' });
    expect(out1.status, out1.text).toBe(201);
    const out1Mail = out1.body.data.mail;
    expect(out1Mail.inReplyTo).toBe(in1.messageId);
    expect(out1Mail.references).toEqual([in1.messageId]);
    expect(out1Mail.subject).toBe('Re: Pedido 123 atrasado');
    expect((await roomOf(t, agente, roomId)).agents.map((a) => a.id)).toEqual(['acme-agente']);
    const caught1 = await t.smtp.waitFor('cliente@cliente.example');
    const parsed1 = await simpleParser(caught1.raw);
    expect(ids(parsed1.messageId)).toEqual([out1Mail.messageId]);
    expect(ids(parsed1.inReplyTo)).toEqual([in1.messageId]);
    expect(parsed1.html).toContain('<strong>Vamos verificar.</strong>');

    // The customer answers our reply; and so on, alternating, then two in a row.
    let chain = [in1.messageId, out1Mail.messageId];
    const in2 = await customerMail({ subject: 'Re: Pedido 123 atrasado', text: 'Obrigado, aguardo.', inReplyTo: out1Mail.messageId, references: chain });
    await t.imap.append(MAILBOX, in2.raw);
    const m2 = await waitForMail(t, in2.messageId);
    expect(m2.roomId).toBe(roomId);

    const out2 = await reply(agente, roomId, m2.id, { message: '<p>Segue o <em>rastreio</em>.</p>' });
    expect(out2.status, out2.text).toBe(201);
    chain = [...chain, in2.messageId, out2.body.data.mail.messageId];
    expect(out2.body.data.mail.references).toEqual(chain.slice(0, -1));

    const in3 = await customerMail({ subject: 'Re: Pedido 123 atrasado', text: 'Recebi o rastreio.', inReplyTo: out2.body.data.mail.messageId, references: chain });
    await t.imap.append(MAILBOX, in3.raw);
    const m3 = await waitForMail(t, in3.messageId);
    expect(m3.roomId).toBe(roomId);
    const out3 = await reply(agente, roomId, m3.id, { message: '<ul><li>um</li><li>dois</li></ul>' });
    expect(out3.status, out3.text).toBe(201);
    chain = [...chain, in3.messageId, out3.body.data.mail.messageId];

    // in4 answers out3 with only In-Reply-To (some clients drop References); in5 answers in4.
    const in4 = await customerMail({ subject: 'Re: Pedido 123 atrasado', text: 'Mais uma dúvida.', inReplyTo: out3.body.data.mail.messageId });
    await t.imap.append(MAILBOX, in4.raw);
    const m4 = await waitForMail(t, in4.messageId);
    const in5 = await customerMail({ subject: 'Re: Pedido 123 atrasado', text: 'Esqueci de dizer.', inReplyTo: in4.messageId, references: [...chain, in4.messageId] });
    await t.imap.append(MAILBOX, in5.raw);
    const m5 = await waitForMail(t, in5.messageId);
    expect([m4.roomId, m5.roomId]).toEqual([roomId, roomId]);

    // Our store: one conversation of 8 messages in order, each stored once.
    const all = await messagesOf(agente, roomId);
    expect(all.map((m) => m.mail?.messageId)).toEqual([in1.messageId, out1Mail.messageId, in2.messageId, out2.body.data.mail.messageId, in3.messageId, out3.body.data.mail.messageId, in4.messageId, in5.messageId]);
    await waitFor(async () => (await messagesOf(agente, roomId)).filter((m) => m.author.type === 'agent').every((m) => m.status?.sent), 'the 3 replies sent');

    // The mailbox's own view: INBOX has the 5, Sent the 3, and every reply's References end
    // with the mail it answers and start at the thread's first mail.
    const inbox = await t.imap.messages(MAILBOX);
    const sent = await t.imap.messages(MAILBOX, 'Sent');
    expect(inbox).toHaveLength(5);
    expect(sent).toHaveLength(3);
    const byId = new Map<string, { inReplyTo: string | undefined; references: string[] }>();
    for (const m of [...inbox, ...sent]) {
      const p = await simpleParser(m.raw);
      byId.set(ids(p.messageId)[0]!, { inReplyTo: ids(p.inReplyTo)[0], references: ids(Array.isArray(p.references) ? p.references.join(' ') : p.references) });
    }
    for (const out of [out1Mail.messageId, out2.body.data.mail.messageId, out3.body.data.mail.messageId]) {
      const h = byId.get(out)!;
      expect(h.references[0]).toBe(in1.messageId);
      expect(h.references.at(-1)).toBe(h.inReplyTo);
      expect(byId.has(h.inReplyTo!)).toBe(true);
    }
    expect(t.smtp.inbox.filter((m) => m.to.includes('cliente@cliente.example'))).toHaveLength(3);
  });

  it('stores every fixture mail once (charsets, nested multiparts, HTML only, no Message-ID, a bounce) and a 10 MB attachment byte for byte', async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.eml')).sort();
    for (const f of files) await t.imap.append(MAILBOX, readFileSync(path.join(FIXTURES, f)));
    const big = randomBytes(10 * 1024 * 1024);
    const withBig = await customerMail({ subject: 'Planilha grande', text: 'Segue o arquivo.', attachments: [{ filename: 'relatorio.bin', content: big, contentType: 'application/octet-stream' }] });
    await t.imap.append(MAILBOX, withBig.raw);
    const bigMail = await waitForMail(t, withBig.messageId, 60_000);

    // Two Chatwoot fixtures share one Message-ID: the second is the same mail again.
    const rows = await t.server.db('messages').where({ tenant_id: 'acme', channel_id: MAIL_CHANNEL });
    const stored = rows.map((r) => parseJson<Message>(r.data, {} as Message));
    const keys = stored.map((m) => m.mail!.messageId);
    expect(new Set(keys).size).toBe(keys.length);
    const of = (subject: string) => stored.find((m) => m.mail?.subject === subject);
    expect(of('test html only mail')?.mail?.html).toContain('<h1>');
    expect(stored.find((m) => m.mail?.from?.address === 'mailer-daemon@amazonses.com')?.mail?.auto).toBe('bounce');
    expect(stored.find((m) => m.mail?.from?.address === 'booewq@uuui.com')?.mail?.html).toContain('sectionÜ');
    const noId = stored.filter((m) => m.mail!.messageId.startsWith('hash:'));
    expect(noId.length).toBeGreaterThanOrEqual(3);
    const png = stored.find((m) => m.attachments?.some((a) => a.filename === 'screenshot.png'));
    expect(png?.attachments?.[0]?.mimeType).toBe('image/png');
    const spam = stored.find((m) => m.mail?.from?.address === 'noreply@guide-des-vins-de-bourgogne.fr');
    expect(spam?.mail?.html ?? '').not.toMatch(/<script|onload=|javascript:/i);
    // 8 distinct fixture mails (9 files, one duplicate id) plus the big one, plus the first test's 5 in.
    expect(stored.filter((m) => m.author.type === 'client')).toHaveLength(8 + 1 + 5);

    const attachment = bigMail.attachments!.find((a) => a.filename === 'relatorio.bin')!;
    const file = await fetch(`${t.baseUrl}${attachment.url}`, { headers: { host: t.hosts.acme } });
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
  });

  it('two mails whose Message-IDs share their first 200 characters are two mails', async () => {
    const stem = `${'a'.repeat(210)}`;
    const first = await customerMail({ subject: 'Id longo 1', text: 'Primeira.', messageId: `${stem}-1@cliente.example` });
    const second = await customerMail({ subject: 'Id longo 2', text: 'Segunda.', messageId: `${stem}-2@cliente.example` });
    await t.imap.append(MAILBOX, first.raw);
    await waitForMail(t, first.messageId);
    await t.imap.append(MAILBOX, second.raw);
    const stored = await waitForMail(t, second.messageId);
    expect(stored.text).toContain('Segunda.');
    expect((await storedByMailId(t, first.messageId)).map((m) => m.text)).toEqual([expect.stringContaining('Primeira.')]);
  });

  it('a mail without threading headers joins the open conversation of the same sender and subject; otherwise a new one', async () => {
    const a = await customerMail({ from: 'ana@cliente.example', subject: 'Troca de produto', text: 'Quero trocar.' });
    await t.imap.append(MAILBOX, a.raw);
    const first = await waitForMail(t, a.messageId);
    const b = await customerMail({ from: 'ana@cliente.example', subject: 'RE: Troca de produto', text: 'Alguma novidade?' });
    await t.imap.append(MAILBOX, b.raw);
    expect((await waitForMail(t, b.messageId)).roomId).toBe(first.roomId);
    // Same subject, another sender: another conversation. Same sender, new subject: another too.
    const c = await customerMail({ from: 'bia@cliente.example', subject: 'Re: Troca de produto', text: 'Eu também.' });
    const d = await customerMail({ from: 'ana@cliente.example', subject: 'Outro assunto', text: 'Nova dúvida.' });
    await t.imap.append(MAILBOX, c.raw);
    await t.imap.append(MAILBOX, d.raw);
    expect((await waitForMail(t, c.messageId)).roomId).not.toBe(first.roomId);
    expect((await waitForMail(t, d.messageId)).roomId).not.toBe(first.roomId);
  });

  it('shows HTML sanitised: no script, no handlers, no remote loads until asked, inline cid: images from our store', async () => {
    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const m = await customerMail({
      subject: 'HTML perigoso',
      html: '<div style="position:fixed;top:0;color:red" onclick="alert(1)">Oi<script>alert(2)</script><img src="https://tracker.example/p.gif"><img src="cid:logo@x"><a href="javascript:alert(3)">x</a><iframe src="https://evil.example"></iframe><style>body{display:none}</style></div>',
      attachments: [{ filename: 'logo.png', content: pixel, contentType: 'image/png', cid: 'logo@x' }],
    });
    await t.imap.append(MAILBOX, m.raw);
    const stored = await waitForMail(t, m.messageId);
    const html = stored.mail!.html!;
    expect(html).not.toMatch(/script|onclick|javascript:|iframe|position|display:none|tracker\.example/i);
    expect(html).toContain('color:red');
    expect(html).toMatch(/<img src="\/api\/files\/acme\/[^"]+\.png"/);
    expect(stored.mail!.remoteImages).toBe(true);
    expect(stored.mail!.remoteHtml).toContain('https://tracker.example/p.gif');
    expect(stored.attachments ?? []).toHaveLength(0);
  });

  it('auto-replies are marked and never answered; an empty reply is refused and nothing is sent', async () => {
    const auto = await customerMail({ subject: 'Ausente do escritório', text: 'Estou de férias.', headers: { 'Auto-Submitted': 'auto-replied' } });
    await t.imap.append(MAILBOX, auto.raw);
    const stored = await waitForMail(t, auto.messageId);
    expect(stored.mail!.auto).toBe('auto-reply');
    await settle(t);
    const msgs = await messagesOf(t.tokens.admin, stored.roomId);
    expect(msgs).toHaveLength(1);

    const before = t.smtp.inbox.length;
    const empty = await reply(t.tokens.agente, stored.roomId, stored.id, { message: '<p> </p><p><br></p>' });
    expect(empty.status).toBe(400);
    expect(empty.body.errorMessage).toBe(texts.mail.emptyReply);
    expect(t.smtp.inbox.length).toBe(before);
  });

  it('who may reply: an agent of the mailbox department or an admin; others get 404/403 and nothing is sent', async () => {
    const m = await customerMail({ from: 'quem@cliente.example', subject: 'Quem responde?', text: 'Olá' });
    await t.imap.append(MAILBOX, m.raw);
    const stored = await waitForMail(t, m.messageId);
    const before = t.smtp.inbox.length;
    // suporte@ is no agent of vendas: the room is invisible to them.
    expect((await reply(t.tokens.suporte, stored.roomId, stored.id, { message: '<p>oi</p>' })).status).toBe(404);
    const otherTenant = await t.tokenFor('outra', 'outra-admin');
    expect((await t.api(`/api/mail/${stored.roomId}/${stored.id}`, { method: 'POST', body: { message: 'oi' }, token: otherTenant, host: t.hosts.outra })).status).toBe(404);
    expect((await t.api(`/api/mail/${stored.roomId}/${stored.id}`, { method: 'POST', body: { message: 'oi' } })).status).toBe(401);
    // A reply to a message of another room is not found.
    const webchat = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { text: 'oi', displayName: 'X', clientId: randomUUID() } });
    expect((await reply(t.tokens.admin, webchat.body.data.roomId, stored.id, { message: '<p>oi</p>' })).status).toBe(400);
    expect(t.smtp.inbox.length).toBe(before);
    const ok = await reply(t.tokens.admin, stored.roomId, stored.id, { message: '<p>oi</p>', cc: 'gerente@cliente.example' });
    expect(ok.status, ok.text).toBe(201);
    const caught = await t.smtp.waitFor('quem@cliente.example');
    expect(caught.subject).toBe('Re: Quem responde?');
    expect(caught.raw).toMatch(/^Cc: gerente@cliente\.example/m);
    expect((await storedByMailId(t, ok.body.data.mail.messageId))).toHaveLength(1);
  });
});
