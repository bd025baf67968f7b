import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { waitFor } from '../helpers/wait-for';
import { freePort, spawnCollecting } from './server-process';

/**
 * deploy/atendimento@.service, checked by starting it: its ExecStart runs with the unit's
 * Environment lines (%i = a free port, DATA_DIR and WorkingDirectory pointed at this checkout),
 * the server becomes ready on /api/health/ready, and the unit's KillSignal stops it cleanly
 * within TimeoutStopSec. (This box has no systemd as PID 1, so systemctl cannot run it here.)
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const unit = readFileSync(path.join(repoRoot, 'deploy', 'atendimento@.service'), 'utf8');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'systemd-unit-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function directives(name: string): string[] {
  return unit.split('\n').filter((line) => line.startsWith(`${name}=`)).map((line) => line.slice(name.length + 1));
}

describe('systemd unit', () => {
  it('starts with its ExecStart and environment, gets ready, stops cleanly on its KillSignal', async () => {
    await buildServer();
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const line of directives('Environment')) {
      const at = line.indexOf('=');
      env[line.slice(0, at)] = line.slice(at + 1).replace('%i', String(port));
    }
    expect(env).toMatchObject({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' });
    expect(directives('WorkingDirectory')).toEqual(['/opt/atendimento']);
    const [exec] = directives('ExecStart');
    const [binary, ...args] = exec!.split(/\s+/);
    expect(binary).toBe('/usr/bin/node');
    const signal = directives('KillSignal')[0] as NodeJS.Signals;
    const stopSeconds = Number(directives('TimeoutStopSec')[0]);

    const { child, output, exited } = spawnCollecting(args, {
      cwd: repoRoot,
      // What /etc/atendimento/env (EnvironmentFile) provides in production.
      env: { PATH: process.env.PATH ?? '', ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', JWT_SECRET: 'u'.repeat(48), SECRETS_KEY: 'k'.repeat(44) },
    });
    try {
      await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`the unit's process exited with ${child.exitCode}:\n${output()}`);
        return (await fetch(`http://127.0.0.1:${port}/api/health/ready`).then((r) => r.status, () => 0)) === 200;
      }, `ready on ${port}`, 90_000);
      child.kill(signal);
      // systemd would SIGKILL after TimeoutStopSec; the graceful stop exits 0 well before.
      expect(stopSeconds).toBeGreaterThan(0);
      expect(await exited, output()).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 150_000);
});
