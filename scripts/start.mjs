// `npm start`: build the web app when its sources are newer than the last build, then run the server.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from './build-server.mjs';
import { supervise } from './supervise.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'engine', 'dist', 'index.html');

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

if (existsSync(path.join(root, 'engine', 'index.html'))) {
  const built = existsSync(dist) ? statSync(dist).mtimeMs : 0;
  const sources = Math.max(...['engine', 'console', 'schemas'].map((d) => newest(path.join(root, d))));
  if (sources > built) {
    console.log('Gerando a interface (vite build)...');
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

// Plain JavaScript starts in a fraction of tsx's time (docs/running.md "Built server").
const server = await buildServer();
// Supervised (docs/running.md "Crash and restart"): a crashed server is started again.
const running = supervise({ command: process.execPath, args: ['--enable-source-maps', server], cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => running.stop(signal));
process.exit(await running.done);
