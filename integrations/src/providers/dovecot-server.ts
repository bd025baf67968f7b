import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

/**
 * A real IMAP server for tests and the demo: Debian's dovecot (package dovecot-imapd) run as a
 * non-root process with its whole configuration, state and Maildirs in one temporary folder,
 * listening on loopback only, plaintext (no TLS), one static password per user. When this
 * process is root (CI, containers), dovecot runs as `nobody` through setpriv, so it never
 * holds root either way.
 */

export const DOVECOT_BINARY = process.env.DOVECOT_BINARY ?? '/usr/sbin/dovecot';
const SETPRIV = '/usr/bin/setpriv';

/** True when dovecot is installed (`apt-get install dovecot-imapd`). */
export function dovecotAvailable(): boolean {
  return existsSync(DOVECOT_BINARY);
}

export interface DovecotUser {
  user: string;
  password: string;
}

export interface DovecotServer {
  host: string;
  port: number;
  dir: string;
  /** Appends a raw message to a user's folder (the customer's mail arriving). */
  append(user: DovecotUser, raw: Buffer | string, folder?: string): Promise<void>;
  /** Raw messages of a user's folder, in UID order. */
  messages(user: DovecotUser, folder?: string): Promise<{ uid: number; raw: Buffer }[]>;
  /** Stops the server (kills every connection); start() brings it back with the same mail. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) chownTree(full, uid, gid);
    else chownSync(full, uid, gid);
  }
}

async function waitForGreeting(port: number, child: ChildProcess, log: () => string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('* OK'));
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`dovecot did not answer on port ${port}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts dovecot with these users (see the header). */
export async function startDovecot(options: { users: DovecotUser[]; port?: number; dir?: string }): Promise<DovecotServer> {
  if (process.getuid?.() === 0 && !existsSync(SETPRIV)) throw new Error('startDovecot: running as root needs /usr/bin/setpriv (util-linux) to run dovecot as nobody.');
  if (!dovecotAvailable()) throw new Error(`startDovecot: ${DOVECOT_BINARY} not found. Install it with "apt-get install dovecot-imapd" (docs/email.md).`);
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'atendimento-imap-'));
  const port = options.port ?? (await freePort());
  const root = process.getuid?.() === 0;
  const uid = root ? 65534 : process.getuid!();
  const gid = root ? 65534 : process.getgid!();
  const userName = root ? 'nobody' : os.userInfo().username;
  const groupName = root ? 'nogroup' : String(gid);
  for (const sub of ['run', 'state', 'mail']) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, 'passwd'), options.users.map((u) => `${u.user}:{PLAIN}${u.password}`).join('\n') + '\n');
  const conf = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
info_log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${userName}
default_internal_group = ${groupName}
default_login_user = ${userName}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
protocol imap {
  mail_max_userip_connections = 100
}
`;
  writeFileSync(path.join(dir, 'dovecot.conf'), conf);
  if (root) chownTree(dir, uid, gid);

  let child: ChildProcess | null = null;
  let output = '';
  const log = () => output.slice(-2000);

  async function start(): Promise<void> {
    const args = ['-F', '-c', path.join(dir, 'dovecot.conf')];
    // setpriv execs dovecot with a parent-death signal: when this process dies (even by
    // SIGKILL), the IMAP server goes with it instead of lingering.
    const drop = root ? [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'] : [];
    child = existsSync(SETPRIV)
      ? spawn(SETPRIV, [...drop, '--pdeathsig', 'SIGTERM', DOVECOT_BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(DOVECOT_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    await waitForGreeting(port, child, log);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
      running.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      running.kill('SIGTERM');
    });
    // The master's children (imap processes) go with it; wait until the port is free again.
    for (let i = 0; i < 50; i++) {
      const busy = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (!busy) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const imapFor = (user: DovecotUser) => {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: user.user, pass: user.password }, logger: false });
    c.on('error', () => {});
    return c;
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    dir,
    async append(user, raw, folder = 'INBOX') {
      const c = imapFor(user);
      await c.connect();
      try {
        const boxes = await c.list();
        if (!boxes.some((b) => b.path === folder)) await c.mailboxCreate(folder);
        await c.append(folder, typeof raw === 'string' ? Buffer.from(raw) : raw);
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
    async messages(user, folder = 'INBOX') {
      const c = imapFor(user);
      await c.connect();
      try {
        const boxes = await c.list();
        if (!boxes.some((b) => b.path === folder)) return [];
        await c.mailboxOpen(folder, { readOnly: true });
        const out: { uid: number; raw: Buffer }[] = [];
        for await (const m of c.fetch('1:*', { source: true, uid: true })) if (m.source) out.push({ uid: m.uid, raw: Buffer.from(m.source) });
        return out.sort((a, b) => a.uid - b.uid);
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
    stop,
    start,
    async close() {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
