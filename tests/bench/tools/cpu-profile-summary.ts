/**
 * Self time of a V8 CPU profile (`--cpu-prof`, BENCH_CPU_PROF) by package and by function, so a
 * profile of the forked bench server can be read without DevTools:
 *
 *   npx tsx tests/bench/tools/cpu-profile-summary.ts /tmp/prof/CPU.*.cpuprofile [--top 40] [--per N]
 *
 * `--per N` also prints each line divided by N (the webhooks or requests the run served), which
 * is how docs/bench.md reports "µs per webhook"; `--skip MS` leaves out the first MS
 * milliseconds (the server's start: module loading, migrations, seeding).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** The package a script belongs to: node_modules/<pkg> (scoped included), our top folder, or node's own. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope = '', name = ''] = url.slice(modules + 'node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  if (url.startsWith('node:')) return 'node';
  const ours = /\/(server|schemas|engine|console|integrations)\/src\/([^/]+)/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

export function summarize(profile: Profile, skipMicros = 0): { total: number; byPackage: Map<string, number>; byFunction: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfById = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= skipMicros) selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of selfById) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    total += micros;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const fn = `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  }
  return { total, byPackage, byFunction };
}

function print(title: string, table: Map<string, number>, total: number, top: number, per: number) {
  console.log(`\n${title}`);
  for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const share = ((micros / total) * 100).toFixed(1).padStart(5);
    const each = per ? `  ${(micros / per).toFixed(1).padStart(8)} µs each` : '';
    console.log(`${share} %  ${(micros / 1000).toFixed(0).padStart(7)} ms${each}  ${name}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (flag: string) => { const at = args.indexOf(flag); return at >= 0 ? Number(args.splice(at, 2)[1]) : 0; };
  const top = option('--top') || 30;
  const per = option('--per');
  const skip = option('--skip');
  for (const file of args) {
    const { total, byPackage, byFunction } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, skip * 1000);
    console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
    print('by package (self time)', byPackage, total, top, per);
    print('by function (self time)', byFunction, total, top, per);
  }
}
