import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { buildRaw } from '@atendimento/integrations/mail/smtp-sender';
import { dovecotAvailable, startDovecot, type DovecotServer } from '@atendimento/integrations/providers/dovecot-server';
import type { Db } from '../db/knex';
import { createChannelProviderRepository } from '../db/repositories/channel-provider-repository';

/** The demo tenant's mail channel (demo-data.ts) and its address. */
export const DEMO_MAIL_CHANNEL = 'email-comercial';
export const DEMO_MAIL_ADDRESS = 'contato@atendimento.local';

export interface DemoMail {
  imap: DovecotServer;
  user: { user: string; password: string };
}

/**
 * `npm start` only: Debian's dovecot (when installed) holding the demo mailbox, its Maildir kept
 * under data/imap so the mail survives restarts (a temporary folder when run as root). Null
 * without dovecot (docs/email.md).
 */
export async function startDemoMail(dataDir: string): Promise<DemoMail | null> {
  if (!dovecotAvailable()) return null;
  const user = { user: DEMO_MAIL_ADDRESS, password: randomBytes(12).toString('hex') };
  // As root dovecot runs as nobody, who may not reach data/: the mailbox then lives in a
  // temporary folder for this run only.
  const imap = await startDovecot({ users: [user], ...(process.getuid?.() === 0 ? {} : { dir: path.join(dataDir, 'imap') }) });
  return { imap, user };
}

/**
 * Points the demo mail channel at the local dovecot and the local SMTP catcher (only a channel
 * without settings, or with settings written here, is touched) and, on an empty mailbox, puts
 * one customer mail in it so 'Inbox' has a thread to answer.
 */
export async function wireDemoMail(db: Db, tenantId: string, demo: DemoMail, smtpPort: number): Promise<boolean> {
  const channels = createChannelProviderRepository(db);
  const found = await channels.settings(tenantId, DEMO_MAIL_CHANNEL);
  if (!found) return false;
  const current = found.settings as { demo?: boolean } | null;
  if (current && !current.demo) return false;
  await channels.saveSettings(tenantId, DEMO_MAIL_CHANNEL, {
    demo: true,
    imap: { host: demo.imap.host, port: demo.imap.port, secure: false, user: demo.user.user, password: demo.user.password },
    smtp: { host: '127.0.0.1', port: smtpPort, secure: false },
    fromAddress: DEMO_MAIL_ADDRESS,
    fromName: 'Atendimento Demonstração',
    pollSeconds: 30,
  });
  if ((await demo.imap.messages(demo.user)).length === 0) {
    const raw = await buildRaw({
      from: 'Paula Cliente <paula@cliente.example>',
      to: DEMO_MAIL_ADDRESS,
      subject: 'Segunda via do boleto',
      html: '<p>Olá!</p><p>Preciso da <strong>segunda via</strong> do boleto de novembro. Podem me enviar?</p><p>Obrigada,<br>Paula</p>',
    });
    await demo.imap.append(demo.user, raw);
  }
  return true;
}
