import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { MULTIPART_BOUNDARY, MULTIPART_TYPE } from '../helpers/multipart';
import { waitFor } from '../helpers/wait-for';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from '../server/chat/chat-helpers';

/**
 * A multipart body that ends before its closing boundary made busboy emit
 * 'Unexpected end of form' on a file stream nobody listened to, and the process exited for
 * every tenant. Every upload route (chat files, /api/upload, register imports, campaign files:
 * every reader of multipart in server/src/web) answers 400 in Portuguese instead, and the server keeps
 * serving (an unhandled stream error would also fail this file through vitest's error report).
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

/** A body with a field, then a file part whose bytes stop mid-way: no closing boundary. */
function truncated(fields: Record<string, string>, fileName: string, bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`), bytes);
  return Buffer.concat(parts);
}

function post(path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, path, method: 'POST', headers: { host: t.hosts.acme, 'content-type': MULTIPART_TYPE, 'content-length': String(body.length), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('truncated multipart on every upload route', () => {
  it('answers 400 in Portuguese and keeps serving', async () => {
    const session = await visitorStarts(t, 'site-vendas', 'Vou mandar um arquivo');
    await push(t, t.tokens.agente, session.roomId!);
    const csv = Buffer.from('displayName;active\nUma;true\nDuas;');
    const campaignCsv = Buffer.from('chatId;displayName\n5511999990001;Ana\n55119999');
    const png = Buffer.concat([PNG, Buffer.alloc(50_000, 0x41)]);
    const cases: [string, string, Buffer, Record<string, string>, Record<string, string>][] = [
      ['webchat visitor', `/api/webchat/rooms/${session.roomId}/message/file`, truncated({ type: 'image' }, 'foto.png', png), { 'x-visitor-key': session.visitorKey }, {}],
      ['agent room file', `/api/rooms/${session.roomId}/message/file`, truncated({ type: 'image' }, 'foto.png', png), { authorization: `Bearer ${t.tokens.agente}` }, {}],
      ['register upload', '/api/upload', truncated({}, 'foto.png', png), { authorization: `Bearer ${t.tokens.admin}` }, {}],
      ['tags import', '/api/tags/import', truncated({}, 'tags.csv', csv), { authorization: `Bearer ${t.tokens.admin}` }, {}],
      ['tags import, cut inside the headers', '/api/tags/import', Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-da`), { authorization: `Bearer ${t.tokens.admin}` }, {}],
      ['campaign preview', '/api/notifications/preview', truncated({ name: 'Campanha' }, 'contatos.csv', campaignCsv), { authorization: `Bearer ${t.tokens.admin}` }, {}],
      ['campaign create', '/api/notifications', truncated({ name: 'Campanha' }, 'contatos.csv', campaignCsv), { authorization: `Bearer ${t.tokens.admin}` }, {}],
      ['campaign create, cut inside the headers', '/api/notifications', Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-da`), { authorization: `Bearer ${t.tokens.admin}` }, {}],
    ];
    for (const [what, path, body, headers] of cases) {
      const res = await post(path, body, headers);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.errorMessage, what).toBe(texts.errors.uploadInterrupted);
      // Still serving every tenant.
      const health = await t.api('/api/auth/me', { token: t.tokens.admin });
      expect(health.status, what).toBe(200);
    }
    // A cut upload gives its share of the upload budget back (else a few would refuse every later one).
    await waitFor(() => t.server.services.uploads.stats().bytes === 0, 'upload budget released');
  });
});
