// The production start's supervisor (docs/running.md "Crash and restart"): runs the
// server as a child process and starts a new one when it dies by itself, so one crash never
// leaves every tenant without service. A signal sent to the supervisor (Ctrl+C, SIGTERM from a
// service manager) is passed to the child and ends both. Restarts back off (0.5 s doubling to
// 10 s) and stop after `maxRestarts` within `windowMs`: a server that cannot start at all
// (bad configuration, database down) ends the supervisor with its exit code instead of looping.
import { spawn } from 'node:child_process';

/**
 * @param {{ command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv, stdio?: import('node:child_process').StdioOptions,
 *   maxRestarts?: number, windowMs?: number, log?: (line: string) => void, onChild?: (child: import('node:child_process').ChildProcess) => void }} options
 * @returns {{ stop(signal?: NodeJS.Signals): void, done: Promise<number> }}
 */
export function supervise(options) {
  const maxRestarts = options.maxRestarts ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  /** @type {number[]} */
  let restarts = [];
  let stopping = false;
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  let resolveDone = (/** @type {number} */ _code) => {};
  const done = new Promise((resolve) => (resolveDone = resolve));

  const start = () => {
    timer = null;
    child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env ?? process.env, stdio: options.stdio ?? 'inherit' });
    options.onChild?.(child);
    child.on('exit', (code, signal) => {
      child = null;
      if (stopping) return resolveDone(code ?? 0);
      // Exit code 0 without being asked: the server chose to stop (e.g. its own SIGTERM handler).
      if (code === 0) return resolveDone(0);
      const now = Date.now();
      restarts = restarts.filter((at) => now - at < windowMs);
      if (restarts.length >= maxRestarts) {
        log(`Servidor caiu ${restarts.length + 1} vezes em ${Math.round(windowMs / 1000)} s; desistindo (código ${code ?? signal}).`);
        return resolveDone(code ?? 1);
      }
      restarts.push(now);
      const wait = Math.min(10_000, 500 * 2 ** (restarts.length - 1));
      log(`Servidor caiu (${signal ?? `código ${code}`}); reiniciando em ${wait} ms.`);
      timer = setTimeout(start, wait);
    });
  };
  start();

  return {
    done,
    stop(signal = 'SIGTERM') {
      stopping = true;
      if (timer) {
        clearTimeout(timer);
        resolveDone(0);
      }
      child?.kill(signal);
      if (!child && !timer) resolveDone(0);
    },
  };
}
