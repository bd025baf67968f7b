import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { freePort, spawnCollecting } from './server-process';

/**
 * A supervisor (systemd, a container runtime, Ctrl+C) may stop `npm start` the moment its port
 * answers, while the demo is still being wired behind it (the WhatsApp demo after listen). The
 * stop must stay clean: exit 0, no "Falha ao iniciar" from start-up steps that met closed parts.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('a stop that comes while the server is starting', () => {
  it('exits 0 when SIGTERM arrives as soon as the port answers', async () => {
    const bundle = await buildServer();
    for (let round = 0; round < 3; round++) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'stop-starting-'));
      const port = await freePort();
      const { child, output, exited } = spawnCollecting([bundle], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO_MAIL: 'false', DEMO_GOOGLE: 'false', SECRETS_KEY: 'k'.repeat(44) },
      });
      try {
        // Poll the socket, not the banner: the banner comes after the wiring this is about.
        for (;;) {
          if (child.exitCode !== null) throw new Error(`exited before listening (${child.exitCode}):\n${output()}`);
          const up = await new Promise<boolean>((resolve) => {
            const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
            socket.once('error', () => resolve(false));
          });
          if (up) break;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        child.kill('SIGTERM');
        const code = await exited;
        expect(output()).not.toContain('Falha ao iniciar');
        expect(code).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }, 180_000);
});
