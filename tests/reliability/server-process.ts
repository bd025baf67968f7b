import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A free port below Linux's ephemeral range (32768+): a port the kernel handed out and took
 * back could be handed again to the process's own port-0 listeners (its local SMTP server).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const server = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/** A node child process with its stdout and stderr collected (for failure messages), and its exit code. */
export function spawnCollecting(args: string[], options: SpawnOptions): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** A real server process: the built server/dist/main.mjs, as `npm start` runs it. */
export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** Host header for the default (demo) tenant. */
  host: string;
  port: number;
  pid: number;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** SIGTERM (the server closes its sockets, bus and pool), then SIGKILL if it hangs. */
  stop(): Promise<void>;
}

/**
 * Starts `npm start`'s entry in a child process with `env` on a random port, and resolves once
 * it prints its address. The first process on an empty database seeds the demo tenant; start
 * the next one after it resolved. Give every process the same JWT_SECRET (tokens cross them).
 */
export async function spawnServer(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const bundle = await buildServer();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atendimento-proc-'));
  const { child, output, exited } = spawnCollecting(['--enable-source-maps', bundle], {
    cwd: repoRoot,
    // DEMO_MAIL=false: these processes are killed with SIGKILL; the demo's IMAP server is not what they test.
    // One channel-secrets key for every spawned process: processes sharing a database must
    // share SECRETS_KEY (docs/channels.md "Secrets"), as they would in production.
    env: { CONN_MAX_PER_IP: '100000', WS_MAX_PER_IP: '100000', SECRETS_KEY: 'chave-de-teste-dos-segredos-dos-canais-32+', ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_MAIL: 'false', ...env },
  });

  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`spawnServer: no address after ${timeoutMs} ms. Output:\n${output()}`)), timeoutMs);
    const check = () => {
      const match = /Abra http:\/\/localhost:(\d+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`spawnServer: the server exited with ${code} before listening. Output:\n${output()}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });

  return { baseUrl: `http://127.0.0.1:${port}`, host: `localhost:${port}`, port, pid: child.pid!, output, stop };
}
