import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startSmtpCatcher } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { createMailer } from '@atendimento/server/services/mail/mailer';
import type { Message } from '@atendimento/schemas';
import { waitFor } from '../../helpers/wait-for';
import { stopServerNow } from '../../helpers/stop-server';
import {
  customerMail, MAIL_CHANNEL, MAILBOX, mailSettings, setMailSettings, startCuttingProxy, startMailServer, stopMailServer, storedByMailId, waitForMail, type MailTest,
} from './mail-helpers';

let t: MailTest;
let proxy: Awaited<ReturnType<typeof startCuttingProxy>>;
beforeAll(async () => {
  // The watcher talks to dovecot through a proxy that can cut the connection mid-fetch.
  t = await startMailServer();
  proxy = await startCuttingProxy(t.imap.port);
  await setMailSettings(t, MAIL_CHANNEL, mailSettings(proxy.port, t.smtp.port));
  await waitFor(() => t.server.services.mail.watcher('acme', MAIL_CHANNEL)?.connected(), 'watcher through the proxy');
});
afterAll(async () => {
  await proxy?.close();
  await stopMailServer(t);
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function allMailKeys(): Promise<string[]> {
  const rows = await t.server.db('messages').where({ tenant_id: 'acme', channel_id: MAIL_CHANNEL });
  return rows.map((r) => JSON.parse(typeof r.data === 'string' ? r.data : JSON.stringify(r.data)) as Message).map((m) => m.mail!.messageId);
}

describe('mail reliability', () => {
  it('IMAP killed mid-fetch, then the server restarted (and UIDVALIDITY changed): every mail stored exactly once', async () => {
    const small = await Promise.all([1, 2, 3].map((i) => customerMail({ subject: `Antes ${i}`, text: `mensagem ${i}` })));
    const big = await customerMail({ subject: 'Anexo grande', text: 'segue', attachments: [{ filename: 'grande.bin', content: randomBytes(6 * 1024 * 1024) }] });
    const after = await customerMail({ subject: 'Depois', text: 'última' });
    // Cut the connection once 2 MB went to the client: in the middle of the big message.
    proxy.cutAfter(2 * 1024 * 1024);
    for (const m of [...small, big, after]) await t.imap.append(MAILBOX, m.raw);
    await waitFor(() => proxy.cuts() > 0, 'the IMAP connection cut mid-fetch', 30_000);
    // The watcher reconnects by itself and resumes from the last UID it stored.
    for (const m of [...small, big, after]) await waitForMail(t, m.messageId, 30_000);

    // Restart: a new server process on the same database, with the folder's UIDVALIDITY
    // forgotten (as after a mailbox rebuild): it reads the whole folder again.
    const config = t.server.config;
    const logger = createLogger('silent');
    await t.server.services.mail.stop();
    await t.server.db('mail_mailboxes').where({ tenant_id: 'acme', channel_id: MAIL_CHANNEL }).update({ uid_validity: '1' });
    const again = await customerMail({ subject: 'Durante a parada', text: 'chegou com o servidor parado' });
    await t.imap.append(MAILBOX, again.raw);
    const second = await createServer({ config, logger, mailer: createMailer(t.smtp.url, config.mailFrom, logger) });
    try {
      await second.services.mail.refresh();
      await waitFor(async () => (await storedByMailId(t, again.messageId)).length === 1, 'the mail that arrived while stopped', 30_000);
      await second.services.mail.watcher('acme', MAIL_CHANNEL)!.syncNow();
      const keys = await allMailKeys();
      expect(new Set(keys).size).toBe(keys.length);
      for (const m of [...small, big, after, again]) expect(keys.filter((k) => k === m.messageId)).toHaveLength(1);
      const state = await t.server.db('mail_mailboxes').where({ tenant_id: 'acme', channel_id: MAIL_CHANNEL }).first();
      expect(state.uid_validity).not.toBe('1');
    } finally {
      await second.services.mail.stop();
      await stopServerNow(second);
    }
    await t.server.services.mail.refresh();
  });

  it('SMTP down: the reply shows the error; a retry sends it once; a double-clicked reply is one message and one mail', async () => {
    const port = await freePort();
    await setMailSettings(t, MAIL_CHANNEL, mailSettings(proxy.port, port));
    const m = await customerMail({ from: 'smtp@cliente.example', subject: 'SMTP fora', text: 'oi' });
    await t.imap.append(MAILBOX, m.raw);
    const stored = await waitForMail(t, m.messageId);
    const clientId = randomUUID();
    const body = { message: '<p>Resposta <b>importante</b></p>', clientId };
    const [a, b] = await Promise.all([
      t.api(`/api/mail/${stored.roomId}/${stored.id}`, { method: 'POST', body, token: t.tokens.agente }),
      t.api(`/api/mail/${stored.roomId}/${stored.id}`, { method: 'POST', body, token: t.tokens.agente }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    const id = a.body.data.id as string;
    const failed = await waitFor(async () => {
      const res = await t.api(`/api/rooms/${stored.roomId}/messages/${id}`, { token: t.tokens.agente });
      return res.body.data?.status?.failed ? (res.body.data as Message) : null;
    }, 'the reply failed visibly');
    expect(failed.status!.errors![0]!.titleptBR).toMatch(/^Falha ao enviar o e-mail: /);

    // SMTP comes back on that port; the agent retries (twice, quickly): one mail.
    const catcher = await startSmtpCatcher({ port });
    try {
      const retry = await t.api(`/api/rooms/resendMessage/${stored.roomId}/message/${id}`, { method: 'POST', token: t.tokens.agente });
      expect(retry.status, retry.text).toBe(200);
      const twice = await t.api(`/api/rooms/resendMessage/${stored.roomId}/message/${id}`, { method: 'POST', token: t.tokens.agente });
      expect(twice.status).toBe(409);
      const caught = await catcher.waitFor('smtp@cliente.example');
      expect(caught.html).toContain('<b>importante</b>');
      await waitFor(async () => (await t.api(`/api/rooms/${stored.roomId}/messages/${id}`, { token: t.tokens.agente })).body.data?.status?.sent, 'sent after retry');
      expect(catcher.inbox.filter((x) => x.to.includes('smtp@cliente.example'))).toHaveLength(1);
      expect(t.smtp.inbox.filter((x) => x.to.includes('smtp@cliente.example'))).toHaveLength(0);
      const sent = await t.imap.messages(MAILBOX, 'Sent');
      expect(sent.filter((s) => s.raw.toString().includes(failed.mail!.messageId))).toHaveLength(1);
    } finally {
      await catcher.close();
      await setMailSettings(t, MAIL_CHANNEL, mailSettings(proxy.port, t.smtp.port));
    }
  });

  it('a reply with attachments (/file) carries them to the customer; over the limit is refused with the seed text', async () => {
    const m = await customerMail({ from: 'anexo@cliente.example', subject: 'Mande o boleto', text: 'pode mandar?' });
    await t.imap.append(MAILBOX, m.raw);
    const stored = await waitForMail(t, m.messageId);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048)]);
    const res = await t.api(`/api/mail/${stored.roomId}/${stored.id}/file`, {
      method: 'POST', token: t.tokens.agente,
      body: { message: '<p>Segue o boleto.</p>', clientId: randomUUID(), attachments: [{ fileName: 'boleto.pdf', base64: pdf.toString('base64'), mimeType: 'application/pdf' }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attachments[0].filename).toBe('boleto.pdf');
    const caught = await t.smtp.waitFor('anexo@cliente.example');
    expect(caught.raw).toContain('filename=boleto.pdf');
    const bigImage = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5 * 1024 * 1024 + 10)]);
    const tooBig = await t.api(`/api/mail/${stored.roomId}/${stored.id}/file`, {
      method: 'POST', token: t.tokens.agente,
      body: { message: '<p>foto</p>', attachments: [{ fileName: 'foto.png', base64: bigImage.toString('base64') }] },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errorMessage).toBe('Upload máximo de imagem: 5MB');
  });
});
