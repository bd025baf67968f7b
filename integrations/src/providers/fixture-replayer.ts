import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hubSignature } from '../channels/signature';
import { fixturesDir } from '../fixtures';

/**
 * A scripted customer: posts every fixture file of a folder (integrations/fixtures/whatsapp or
 * /zapi) to a channel's webhook as the provider would — exact bytes, signed for Meta — then
 * delivers them again (duplicates) and replays status receipts in reverse order (read before
 * sent), the provider behaviours the exactly-once ingest must absorb.
 *
 * CLI: node --import tsx integrations/src/providers/fixture-replayer.ts <webhookUrl> <meta|dialog360|zApi> [appSecret|secretHeader=value] [fixturesDir]
 */
interface ReplayOptions {
  webhookUrl: string;
  kind: 'meta' | 'dialog360' | 'zApi';
  /** Meta: signs X-Hub-Signature-256 with it. */
  appSecret?: string;
  /** 360dialog: header carrying the webhook secret. */
  header?: { name: string; value: string };
  dir: string;
  /** Extra deliveries of every file (default 1). */
  duplicates?: number;
  fetch?: typeof fetch;
}

interface ReplayResult {
  file: string;
  round: 'first' | 'duplicate' | 'reordered';
  status: number;
}

export async function replayFixtures(options: ReplayOptions): Promise<ReplayResult[]> {
  const doFetch = options.fetch ?? fetch;
  const files = readdirSync(options.dir).filter((f) => f.endsWith('.json')).sort();
  const results: ReplayResult[] = [];
  const post = async (file: string, round: ReplayResult['round']) => {
    const raw = readFileSync(path.join(options.dir, file));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.kind === 'meta' && options.appSecret) headers['x-hub-signature-256'] = hubSignature(options.appSecret, raw);
    if (options.header) headers[options.header.name] = options.header.value;
    const res = await doFetch(options.webhookUrl, { method: 'POST', headers, body: new Uint8Array(raw) });
    await res.arrayBuffer();
    results.push({ file, round, status: res.status });
  };
  for (const file of files) await post(file, 'first');
  for (let i = 0; i < (options.duplicates ?? 1); i++) for (const file of files) await post(file, 'duplicate');
  const statuses = files.filter((f) => /^(status_|message_status)/.test(f)).reverse();
  for (const file of statuses) await post(file, 'reordered');
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [webhookUrl, kind, secret, dir] = process.argv.slice(2);
  if (!webhookUrl || !kind) {
    process.stderr.write('uso: fixture-replayer.ts <webhookUrl> <meta|dialog360|zApi> [appSecret|header=valor] [pasta]\n');
    process.exit(2);
  }
  const header = secret?.includes('=') ? { name: secret.slice(0, secret.indexOf('=')), value: secret.slice(secret.indexOf('=') + 1) } : undefined;
  const folder = dir ?? fixturesDir(kind === 'zApi' ? 'zapi' : 'whatsapp');
  replayFixtures({ webhookUrl, kind: kind as ReplayOptions['kind'], appSecret: header ? undefined : secret, header, dir: folder }).then(
    (results) => {
      for (const r of results) process.stdout.write(`${r.status} ${r.round.padEnd(9)} ${r.file}\n`);
      process.exit(results.every((r) => r.status >= 200 && r.status < 300) ? 0 : 1);
    },
    (error) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
