import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One line of the bench table: a figure, the in-run baseline it is compared with, the ratio. */
export interface BenchLine {
  id: string;
  name: string;
  value: number;
  unit: string;
  baselineName?: string;
  baseline?: number;
  /** value / baseline (or baseline / value when lower is better). */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
}

const fmt = (n: number | undefined) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);

export function printTable(lines: BenchLine[]): void {
  const rows = lines.map((l) => [
    l.id,
    l.name,
    `${fmt(l.value)} ${l.unit}`,
    l.baselineName ? `${l.baselineName}: ${fmt(l.baseline)} ${l.unit}` : '',
    l.ratio === undefined ? '' : `${l.ratio.toFixed(2)}x`,
    l.target ? `${l.target} ${l.met ? 'ok' : 'MISSED'}` : '',
  ]);
  const header = ['id', 'benchmark', 'figure', 'baseline', 'ratio', 'target'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log('\n' + line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  for (const l of lines) if (l.note) console.log(`  ${l.id}: ${l.note}`);
}

export function writeResults(lines: BenchLine[], file = path.resolve('bench/results/latest.json')): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), node: process.version, lines }, null, 2));
  console.log(`\nresults written to ${path.relative(process.cwd(), file)}`);
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
