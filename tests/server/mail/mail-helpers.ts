import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { buildRaw } from '@atendimento/integrations/mail/smtp-sender';
import { expect } from 'vitest';
import type { Message, Room } from '@atendimento/schemas';
import { startDovecot, type DovecotServer, type DovecotUser } from '@atendimento/integrations/providers/dovecot-server';
import { toJson, parseJson } from '@atendimento/server/db/knex';
import { channelRow } from '../../helpers/rows';
import { waitFor } from '../../helpers/wait-for';
import { startChatServer, stopChatServer, type ChatTest } from '../chat/chat-helpers';

/** The mailbox of the tests: vendas@acme.test on the local dovecot. */
export const MAILBOX: DovecotUser = { user: 'vendas@acme.test', password: 'caixa-secreta' };
export const MAIL_CHANNEL = 'mail-vendas';

export interface MailTest extends ChatTest {
  imap: DovecotServer;
}

/** Provider settings of the mail channel pointing at an IMAP and an SMTP port. */
export function mailSettings(imapPort: number, smtpPort: number) {
  return {
    imap: { host: '127.0.0.1', port: imapPort, secure: false, user: MAILBOX.user, password: MAILBOX.password },
    smtp: { host: '127.0.0.1', port: smtpPort, secure: false },
    fromAddress: MAILBOX.user,
    fromName: 'Acme Vendas',
    pollSeconds: 5,
  };
}

/**
 * The chat fixture plus a real dovecot with the mailbox, a mail channel 'mail-vendas' (queue of
 * vendas, SMTP to the test catcher) and the inbox claim on for acme, so agents have the
 * 'Meu Inbox' / 'Inbox' tabs. The channel's watcher is connected when this resolves.
 */
export async function startMailServer(options: Parameters<typeof startChatServer>[0] & { imapPort?: number } = {}): Promise<MailTest> {
  const imap = await startDovecot({ users: [MAILBOX] });
  const t = await startChatServer(options);
  const tenant = await t.server.repos.tenants.findById('acme');
  await t.patchAppConfig({ claims: { ...(tenant!.appConfig.claims ?? {}), inbox: true } });
  await addMailChannel(t, MAIL_CHANNEL, mailSettings(options.imapPort ?? imap.port, t.smtp.port));
  return Object.assign(t, { imap });
}

export async function addMailChannel(t: ChatTest, id: string, provider: Record<string, unknown>): Promise<void> {
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert(channelRow('acme', { id, type: 'mail', displayName: 'E-mail Vendas', departmentId: 'vendas', provider }, iso));
  await t.server.services.mail.refresh();
  await waitFor(() => t.server.services.mail.watcher('acme', id)?.connected(), `mail watcher of ${id} connected`);
}

/** Replaces the mail channel's provider settings and restarts its watcher. */
export async function setMailSettings(t: ChatTest, id: string, provider: Record<string, unknown>): Promise<void> {
  const row = await t.server.db('channels').where({ tenant_id: 'acme', id }).first('data');
  await t.server.db('channels').where({ tenant_id: 'acme', id }).update({ data: toJson({ ...parseJson<Record<string, unknown>>(row.data, {}), provider }) });
  await t.server.services.mail.refresh();
}

export async function stopMailServer(t: MailTest | undefined): Promise<void> {
  if (!t) return;
  await t.server.services.mail.stop();
  await stopChatServer(t);
  await t.imap.close();
}

/** A customer's mail as raw bytes (nodemailer's composer, like any mail client). */
export async function customerMail(input: {
  from?: string;
  to?: string;
  subject: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  attachments?: { filename: string; content: Buffer; contentType?: string; cid?: string }[];
  headers?: Record<string, string>;
}): Promise<{ raw: Buffer; messageId: string }> {
  const messageId = input.messageId ?? `${randomUUID()}@cliente.example`;
  const raw = await buildRaw({
    from: input.from ?? 'Cliente Silva <cliente@cliente.example>',
    to: input.to ?? MAILBOX.user,
    subject: input.subject,
    text: input.text,
    html: input.html,
    messageId: `<${messageId}>`,
    ...(input.inReplyTo && { inReplyTo: `<${input.inReplyTo}>` }),
    ...(input.references && { references: input.references.map((r) => `<${r}>`).join(' ') }),
    attachments: input.attachments,
    headers: input.headers,
  });
  return { raw, messageId };
}

/** Every message of the channel whose mail Message-ID is `id`, straight from the store. */
export async function storedByMailId(t: ChatTest, id: string): Promise<Message[]> {
  const rows = await t.server.db('messages').where({ tenant_id: 'acme', channel_id: MAIL_CHANNEL });
  return rows.map((r) => parseJson<Message>(r.data, {} as Message)).filter((m) => m.mail?.messageId === id);
}

/** Waits until the mail with this Message-ID is stored, and answers it. */
export async function waitForMail(t: ChatTest, id: string, timeoutMs = 20_000): Promise<Message> {
  const [m] = await waitFor(async () => {
    const found = await storedByMailId(t, id);
    return found.length ? found : null;
  }, `mail ${id} stored`, timeoutMs);
  return m!;
}

export async function roomOf(t: ChatTest, token: string, roomId: string): Promise<Room> {
  const res = await t.api(`/api/rooms/${roomId}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/**
 * A TCP proxy in front of dovecot that can cut every connection once a number of bytes went
 * from the server to the client (an IMAP connection killed mid-fetch).
 */
export async function startCuttingProxy(targetPort: number) {
  let cutAfter = Infinity;
  let sent = 0;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      sent += d.length;
      if (sent > cutAfter) {
        cutAfter = Infinity;
        cuts += 1;
        drop();
        return;
      }
      client.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Cuts the connections once `bytes` more bytes went to the client. */
    cutAfter(bytes: number) {
      sent = 0;
      cutAfter = bytes;
    },
    cuts: () => cuts,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { stopChatServer };
