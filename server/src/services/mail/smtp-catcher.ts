import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** The message as text (UTF-8), for reading links and headers. */
  raw: string;
  /** The message's bytes as received: what is stored and handed on (8-bit mail in ISO-8859-1 or windows-1252 stays intact). */
  bytes: Buffer;
}

/**
 * A real SMTP server on loopback that keeps what it receives: `npm start` uses it when no
 * SMTP_URL is configured (writing each message to data/mail/), tests use it to read links.
 */
export async function startSmtpCatcher(options: { port?: number; dir?: string; onMail?: (mail: CaughtMail) => void } = {}) {
  const inbox: CaughtMail[] = [];
  const waiters: { match: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }[] = [];
  if (options.dir) mkdirSync(options.dir, { recursive: true });

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const bytes = Buffer.concat(chunks);
        const raw = bytes.toString('utf8');
        const parsed: ParsedMail = await simpleParser(bytes);
        const toField = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
        const mail: CaughtMail = {
          to: toField.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase())),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : null,
          raw,
          bytes,
        };
        inbox.push(mail);
        options.onMail?.(mail);
        if (options.dir) {
          const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to[0] ?? 'sem-destino'}.eml`;
          writeFileSync(path.join(options.dir, name), bytes);
        }
        for (const waiter of [...waiters]) {
          if (waiter.match(mail)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(mail);
          }
        }
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** Resolves with the first message (already caught or future) sent to `to`. */
    waitFor(to: string, timeoutMs = 10_000): Promise<CaughtMail> {
      const match = (m: CaughtMail) => m.to.includes(to.toLowerCase());
      const found = inbox.filter(match).at(-1);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`smtp-catcher: no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpCatcher = Awaited<ReturnType<typeof startSmtpCatcher>>;
