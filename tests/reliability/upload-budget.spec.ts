import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { multipart, MULTIPART_TYPE } from '../helpers/multipart';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { waitFor } from '../helpers/wait-for';

/**
 * The in-flight upload budget counted only chat uploads: `/api/upload`, register imports and
 * campaign files were left out although docs/security.md says it is per process. Every route
 * that takes a file now counts against one budget, and one client address holds at most its
 * share. The budget is made small here (UPLOADS_IN_FLIGHT_*) so a few held uploads fill it;
 * addresses come from X-Forwarded-For (TRUST_PROXY), as behind a reverse proxy.
 */

const MAX = 600_000;
const PER_ADDRESS = 300_000;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer({ env: { UPLOADS_IN_FLIGHT_MAX_BYTES: String(MAX), UPLOADS_IN_FLIGHT_MAX_PER_IP_BYTES: String(PER_ADDRESS), TRUST_PROXY: 'true' } });
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => t?.close());

/** A multipart upload of a PNG whose whole body is exactly `size` bytes. */
function pngBody(size: number): Buffer {
  const empty = multipart({}, { name: 'foto.png', type: 'image/png', bytes: Buffer.alloc(0) });
  return multipart({}, { name: 'foto.png', type: 'image/png', bytes: Buffer.concat([PNG, Buffer.alloc(size - empty.length - PNG.length, 0x41)]) });
}

interface Answer {
  status: number;
  body: any;
}

/**
 * Starts a POST from `address` and sends all of `body` but its last bytes, so the upload stays
 * in flight until `finish()` sends them.
 */
function start(path: string, address: string, body: Buffer, hold = 0): { answer: Promise<Answer>; finish(): void } {
  const url = new URL(t.baseUrl);
  let req!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = http.request(
      {
        hostname: url.hostname, port: url.port, path, method: 'POST',
        headers: { host: t.hosts.acme, authorization: `Bearer ${admin}`, 'x-forwarded-for': address, 'content-type': MULTIPART_TYPE, 'content-length': String(body.length) },
      },
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
    req.write(body.subarray(0, body.length - hold));
  });
  return { answer, finish: () => req.end(body.subarray(body.length - hold)) };
}

const send = (path: string, address: string, body: Buffer) => {
  const upload = start(path, address, body);
  upload.finish();
  return upload.answer;
};

const held = () => t.server.services.uploads.stats().bytes;

describe('one upload budget for every route that takes a file', () => {
  it('answers 503 in Portuguese past an address share or the process budget, and accepts uploads again once they end', async () => {
    const tagsCsv = multipart({}, { name: 'tags.csv', type: 'text/csv', bytes: Buffer.from('name;active\nOrçamento;sim\n') });
    const campaignCsv = multipart({ name: 'Campanha' }, { name: 'contatos.csv', type: 'text/csv', bytes: Buffer.from('chatId;displayName\n5511999990001;Ana\n') });

    // One address holds nearly its share with an upload in flight...
    const first = pngBody(PER_ADDRESS - 50);
    const a = start('/api/upload', '203.0.113.1', first, 100);
    await waitFor(() => held() === first.length, 'the first upload in flight');

    // ...so its next upload, on another route, is refused, while another address still gets in.
    const refused = await send('/api/tags/import', '203.0.113.1', tagsCsv);
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body).toEqual({ error: 'uploads_busy', errorMessage: texts.errors.uploadsBusy });
    const b = start('/api/upload', '203.0.113.2', first, 100);
    await waitFor(() => held() === 2 * first.length, 'the second upload in flight');

    // The process's budget is full now: a third address, holding nothing, is refused on the campaign routes.
    for (const path of ['/api/notifications/preview', '/api/notifications']) {
      const busy = await send(path, '203.0.113.3', campaignCsv);
      expect(busy.status, `${path}: ${JSON.stringify(busy.body)}`).toBe(503);
      expect(busy.body).toEqual({ error: 'uploads_busy', errorMessage: texts.errors.uploadsBusy });
    }

    // Once the uploads in flight end, the budget is free again and the same uploads get in.
    a.finish();
    b.finish();
    for (const done of await Promise.all([a.answer, b.answer])) expect(done.status, JSON.stringify(done.body)).toBe(201);
    await waitFor(() => held() === 0, 'the budget released');
    const imported = await send('/api/tags/import', '203.0.113.1', tagsCsv);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    // The campaign form has no channel: the campaign's own check answers, not the budget.
    const preview = await send('/api/notifications/preview', '203.0.113.3', campaignCsv);
    expect(preview.status, JSON.stringify(preview.body)).toBe(400);
    expect(preview.body.error).not.toBe('uploads_busy');
  });
});
