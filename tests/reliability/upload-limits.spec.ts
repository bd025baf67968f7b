import http from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * R14: limits at their exact boundary. A JSON body of exactly the limit is read, one byte more
 * is 413; a register upload (POST /api/upload) of exactly the image limit is stored, one byte
 * more is 413 with the seed's message and nothing is stored; a declared Content-Length over
 * the ceiling is refused before the body is read.
 */

const MB = 1024 * 1024;
const JSON_LIMIT = 2 * MB;
const IMAGE_LIMIT = 5 * MB;
const UPLOAD_CEILING = 100 * MB;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const BOUNDARY = '----r14-boundary';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => t?.close());

function multipart(name: string, bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A PNG (real signature and header) padded to exactly `size` bytes. */
const pngOf = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0x41)]);

interface Answer {
  status: number;
  body: any;
  /** Body bytes written when the answer arrived. */
  written: number;
}

/** Posts `payload`; with `declared`, lies about Content-Length and writes only `payload`. */
function post(pathname: string, payload: Buffer, contentType: string, declared?: number): Promise<Answer> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    let written = 0;
    const req = http.request(
      {
        hostname: url.hostname, port: url.port, path: pathname, method: 'POST',
        headers: { host: t.hosts.acme, authorization: `Bearer ${admin}`, 'content-type': contentType, 'content-length': String(declared ?? payload.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text, written });
          req.destroy();
        });
      },
    );
    // The server may close the socket once it has answered; that is not a failure here.
    req.on('error', (err) => (written > 0 ? undefined : reject(err)));
    const step = 256 * 1024;
    const pump = () => {
      while (written < payload.length) {
        const chunk = payload.subarray(written, written + step);
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (declared === undefined) req.end();
    };
    pump();
  });
}

/** Every stored file under the server's data dir (blobs), by path. */
function storedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (!/\.(sqlite|sqlite-wal|sqlite-shm)$/.test(name) && !full.includes(`${path.sep}mail${path.sep}`)) out.push(full);
    }
  };
  walk(t.server.config.dataDir);
  return out;
}

describe('limits at the boundary (R14)', () => {
  it('a JSON body of exactly 2 MB is read; one byte more is 413', async () => {
    const body = (size: number) => {
      const head = '{"email":"ninguem@acme.test","password":"';
      const tail = '"}';
      return Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail);
    };
    const exact = await post('/api/auth/login', body(JSON_LIMIT), 'application/json');
    expect(exact.status).not.toBe(413);
    expect(exact.status).toBeLessThan(500);
    const over = await post('/api/auth/login', body(JSON_LIMIT + 1), 'application/json');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ error: 'payload_too_large', errorMessage: expect.any(String) });
  });

  it('an image of exactly 5 MB is stored; one byte more is 413 with the seed message and nothing is stored', async () => {
    const before = storedFiles();
    const exact = await post('/api/upload', multipart('foto.png', pngOf(IMAGE_LIMIT)), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(exact.body.data.file).toMatchObject({ mimeType: 'image/png', size: IMAGE_LIMIT });
    const afterExact = storedFiles();
    expect(afterExact.length).toBe(before.length + 1);

    const over = await post('/api/upload', multipart('foto.png', pngOf(IMAGE_LIMIT + 1)), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ error: 'payload_too_large', errorMessage: texts.chat.uploadImage5 });
    expect(storedFiles()).toEqual(afterExact);
  });

  it('a declared length over the 100 MB ceiling is refused before the body is read', async () => {
    const head = multipart('grande.pdf', Buffer.from('%PDF-1.4\n')).subarray(0, 200);
    const res = await post('/api/upload', head, `multipart/form-data; boundary=${BOUNDARY}`, UPLOAD_CEILING + MB + 1);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'payload_too_large', errorMessage: texts.chat.uploadAny100 });
    // The answer came while only the first bytes (the part header) had been sent.
    expect(res.written).toBe(head.length);
    expect(head.length).toBeLessThan(300);
  });
});
