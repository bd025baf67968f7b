import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hubSignature } from '@atendimento/integrations';
import type { ServerProcess } from './server-process';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A Meta channel the load of a reliability test goes to, and how its customers are numbered. */
export interface WebhookLane {
  channel: string;
  appSecret: string;
  /** Prefix of the wamids, so each test's messages are its own. */
  idPrefix: string;
  waba: string;
  phoneNumberId: string;
  displayPhone: string;
  /** Customer numbers: `${customerBase}${n % customers}`. */
  customerBase: string;
  customers: number;
}

/** The n-th signed-webhook payload of a lane: one inbound text, a fresh wamid. */
export function textWebhook(lane: WebhookLane, n: number): { id: string; raw: Buffer } {
  const id = `wamid.${lane.idPrefix}-${n}-${randomBytes(4).toString('hex')}`;
  const from = `${lane.customerBase}${n % lane.customers}`;
  const body = {
    object: 'whatsapp_business_account',
    entry: [{ id: lane.waba, changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: lane.displayPhone, phone_number_id: lane.phoneNumberId },
      contacts: [{ profile: { name: `Cliente ${n % lane.customers}` }, wa_id: from }],
      messages: [{ from, id, timestamp: String(1_700_000_000 + n), type: 'text', text: { body: `mensagem ${n}` } }],
    } }] }],
  };
  return { id, raw: Buffer.from(JSON.stringify(body)) };
}

/** Posts a payload signed as Meta does; 0 when the connection died (a killed process). */
export async function postWebhook(p: ServerProcess, lane: WebhookLane, raw: Buffer): Promise<number> {
  try {
    const res = await fetch(`${p.baseUrl}/api/webhooks/whatsapp/${lane.channel}`, {
      method: 'POST', body: new Uint8Array(raw),
      headers: { host: p.host, 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(lane.appSecret, raw) },
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** `npm run <args>` in the repository, as the production guide has operators run it. */
export function npmRun(args: string[], extraEnv: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn('npm', ['run', '--silent', ...args], { cwd: repoRoot, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}
