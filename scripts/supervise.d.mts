import type { ChildProcess, StdioOptions } from 'node:child_process';

export function supervise(options: {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
  maxRestarts?: number;
  windowMs?: number;
  log?: (line: string) => void;
  onChild?: (child: ChildProcess) => void;
}): { stop(signal?: NodeJS.Signals): void; done: Promise<number> };
