import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message } from '@atendimento/schemas';
import { multipart, MULTIPART_TYPE } from '../../helpers/multipart';
import { push, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface RawAnswer {
  status: number;
  body: any;
  headers: http.IncomingHttpHeaders;
  /** Body bytes the client had written when the answer arrived. */
  written: number;
}

/**
 * Posts a multipart body. `declaredLength` lies about Content-Length (only the first `sendBytes`
 * are written, then the client waits): an answer that arrives anyway proves the server decided
 * before reading the body. `chunked` streams without a Content-Length.
 */
function postRaw(path: string, payload: Buffer, options: { token?: string; headers?: Record<string, string>; declaredLength?: number; sendBytes?: number; chunked?: boolean } = {}): Promise<RawAnswer> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    let written = 0;
    const req = http.request({
      hostname: url.hostname, port: url.port, path, method: 'POST',
      headers: {
        host: t.hosts.acme,
        'content-type': MULTIPART_TYPE,
        ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(options.declaredLength ?? payload.length) }),
        ...(options.token && { authorization: `Bearer ${options.token}` }),
        ...options.headers,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text && (res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text, headers: res.headers, written });
        req.destroy();
      });
    });
    req.on('error', (err) => (written > 0 ? undefined : reject(err)));
    const toSend = options.sendBytes === undefined ? payload : payload.subarray(0, options.sendBytes);
    const step = 256 * 1024;
    const pump = () => {
      while (written < toSend.length) {
        const chunk = toSend.subarray(written, written + step);
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (options.sendBytes === undefined) req.end();
    };
    pump();
  });
}

describe('uploads: limits of seed 001 §5, enforced by the server', () => {
  it('refuses with 413 and the seed message before reading the body (Content-Length over the limit of ?type=)', async () => {
    const { roomId } = await visitorStarts(t, 'site-vendas', 'Vou mandar arquivos');
    await push(t, t.tokens.agente, roomId!);
    const cases = [
      ['image', 5 * 1024 * 1024 + 100_000, 'Upload máximo de imagem: 5MB'],
      ['video', 16 * 1024 * 1024 + 100_000, 'Upload máximo de imagem: 16MB'],
      ['audio', 16 * 1024 * 1024 + 100_000, 'Upload máximo de imagem: 16MB'],
      ['document', 100 * 1024 * 1024 + 100_000, 'Upload máximo suportado: 100MB'],
    ] as const;
    for (const [type, size, message] of cases) {
      const head = multipart({ type }, { name: 'grande.bin', type: 'application/octet-stream', bytes: Buffer.alloc(1024) });
      const res = await postRaw(`/api/rooms/${roomId}/message/file?type=${type}`, head, { token: t.tokens.agente, declaredLength: size, sendBytes: 512 });
      expect(res.status, type).toBe(413);
      expect(res.body.errorMessage).toBe(message);
      expect(res.written).toBe(512);
    }
  });

  it('cuts a streamed file at its kind limit (no Content-Length) with 413', async () => {
    const { roomId } = await visitorStarts(t, 'site-vendas', 'Outro arquivo');
    await push(t, t.tokens.agente, roomId!);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await postRaw(`/api/rooms/${roomId}/message/file`, multipart({ type: 'image' }, { name: 'foto.png', type: 'image/png', bytes: big }), { token: t.tokens.agente, chunked: true });
    expect(res.status).toBe(413);
    expect(res.body.errorMessage).toBe(texts.chat.uploadImage5);
    const msgs = await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.agente });
    expect(msgs.body.data.filter((m: Message) => m.type === 'image')).toEqual([]);
  });

  it('sends an image the visitor receives live, sniffs the bytes, and never serves HTML as HTML', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Manda a foto?');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const visitorWs = await socketAs(t, visitor.accessToken!);
    await subscribe(visitorWs, 'msgs', 'messages', { roomId });

    const ok = await postRaw(`/api/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image', caption: 'Nosso catálogo', clientId: 'img-1' }, { name: 'catalogo.png', type: 'image/png', bytes: PNG }), { token: t.tokens.agente });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const message = ok.body.data as Message;
    expect(message).toMatchObject({ type: 'image', caption: 'Nosso catálogo', image: { mimeType: 'image/png', caption: 'Nosso catálogo' } });
    const retried = await postRaw(`/api/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image', clientId: 'img-1' }, { name: 'catalogo.png', type: 'image/png', bytes: PNG }), { token: t.tokens.agente });
    expect(retried.status).toBe(200);
    expect(retried.body.data.id).toBe(message.id);
    const live = await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.id === message.id, 'image for the visitor');
    const file = await t.api(live.image!.imageUrl);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');

    // Bytes that are not an image are refused whatever the name says.
    const fake = await postRaw(`/api/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image' }, { name: 'foto.png', type: 'image/png', bytes: Buffer.from('<svg onload="alert(1)"></svg>') }), { token: t.tokens.agente });
    expect(fake.status).toBe(415);
    expect(fake.body.errorMessage).toBe(texts.chatServer.fileTypeMismatch);
    // HTML as a document is stored as text and served as text or a download.
    const html = await postRaw(`/api/rooms/${roomId}/message/file?type=document`, multipart({ type: 'document' }, { name: 'pagina.html', type: 'text/html', bytes: Buffer.from('<html><script>alert(1)</script></html>') }), { token: t.tokens.agente });
    expect(html.status).toBe(201);
    expect(html.body.data.document.fileName).toBe('pagina.html');
    const served = await t.api(html.body.data.document.documentUrl);
    expect(String(served.headers['content-type'])).not.toContain('html');
    // Another department's agent cannot upload into the room (refused before the body).
    const stranger = await postRaw(`/api/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image' }, { name: 'a.png', type: 'image/png', bytes: PNG }), { token: t.tokens.suporte, declaredLength: 4 * 1024 * 1024, sendBytes: 100 });
    expect(stranger.status).toBe(404);
  });

  it('lets the visitor send a file with the same limits, and only with their key', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Segue o comprovante');
    const roomId = visitor.roomId!;
    const agenteWs = await socketAs(t, t.tokens.agente);
    await subscribe(agenteWs, 'msgs', 'messages', { roomId });
    const key = { 'x-visitor-key': visitor.visitorKey };
    const sent = await postRaw(`/api/webchat/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image', clientId: 'comprovante' }, { name: 'comprovante.png', type: 'image/png', bytes: PNG }), { headers: key });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const got = await waitForRecord<Message>(agenteWs, 'msgs', (m) => m.type === 'image' && m.author.type === 'client', 'visitor image for the agent');
    expect(got.image!.imageUrl).toMatch(/^\/api\/files\/acme\//);
    const tooBig = await postRaw(`/api/webchat/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image' }, null), { headers: key, declaredLength: 6 * 1024 * 1024, sendBytes: 100 });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errorMessage).toBe(texts.chat.uploadImage5);
    const noKey = await postRaw(`/api/webchat/rooms/${roomId}/message/file?type=image`, multipart({ type: 'image' }, null), { headers: { 'x-visitor-key': 'y'.repeat(43) }, declaredLength: 1024 * 1024, sendBytes: 100 });
    expect(noKey.status).toBe(404);
  });
});
