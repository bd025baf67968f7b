import { messages } from '@atendimento/schemas';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** GET a file as raw bytes with the given Host (tenant). */
function getBytes(path: string, host: string): Promise<{ status: number; bytes: Buffer; type: string }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    http.get({ hostname: '127.0.0.1', port: url.port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), type: String(res.headers['content-type'] ?? '') }));
    }).on('error', reject);
  });
}

async function stored(channelId: string, externalId: string): Promise<Message> {
  const [row] = await messageRows(t, channelId, externalId);
  expect(row, `message ${externalId}`).toBeTruthy();
  const res = await t.api(`/api/rooms/${row!.room_id}/messages/${row!.id}`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Message;
}

describe('inbound media: fetched at once into our blob store', () => {
  it('Meta: fetches by id with the token, checks sha256 and serves the copy to the tenant only', async () => {
    const mediaId = t.graph.addMedia(PNG, 'image/png');
    const sha256 = createHash('sha256').update(PNG).digest('base64');
    const id = await t.graph.customerSays({ phone: '5511911110000', name: 'Cliente Foto' }, { type: 'image', image: { id: mediaId, mime_type: 'image/png', sha256, caption: 'Minha nota' } });
    const message = await stored('wa-meta', id);
    expect(message.type).toBe('image');
    expect(message.error).toBeFalsy();
    expect(message.image).toMatchObject({ caption: 'Minha nota', mimeType: 'image/png' });
    expect(message.image!.imageUrl).toMatch(/^\/api\/files\/acme\/[A-Za-z0-9_-]+\.png$/);
    const file = await getBytes(message.image!.imageUrl, t.hosts.acme);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    expect(file.bytes.equals(PNG)).toBe(true);
    // Another tenant's host does not serve it.
    expect((await getBytes(message.image!.imageUrl, t.hosts.outra)).status).toBe(404);
  });

  it('a sha256 mismatch keeps the reference for the error renderer; recarregar fetches it again', async () => {
    const mediaId = t.graph.addMedia(PNG, 'image/png');
    const id = await t.graph.customerSays({ phone: '5511911112222', name: 'Cliente Hash' }, { type: 'image', image: { id: mediaId, mime_type: 'image/png', sha256: 'nao-confere' } });
    const broken = await stored('wa-meta', id);
    expect(broken.image).toBeFalsy();
    expect(broken.error).toMatchObject({ type: 'image', mediaId, mimeType: 'image/png' });

    // Only who sees the room may reload it.
    const denied = await t.api(`/api/rooms/${broken.roomId}/reloadMessage`, { method: 'PATCH', body: { messageId: broken.id }, token: t.tokens.suporte });
    expect(denied.status).toBe(404);
    const reloaded = await t.api(`/api/rooms/${broken.roomId}/reloadMessage`, { method: 'PATCH', body: { messageId: broken.id }, token: t.tokens.agente });
    expect(reloaded.status, reloaded.text).toBe(200);
    expect(reloaded.body.data.error).toBeFalsy();
    expect(reloaded.body.data.image.imageUrl).toMatch(/^\/api\/files\/acme\//);
    expect((await getBytes(reloaded.body.data.image.imageUrl, t.hosts.acme)).bytes.equals(PNG)).toBe(true);
    // Nothing left to reload.
    const again = await t.api(`/api/rooms/${broken.roomId}/reloadMessage`, { method: 'PATCH', body: { messageId: broken.id }, token: t.tokens.agente });
    expect(again.status).toBe(400);
    expect(again.body.errorMessage).toBe(messages.whatsapp.nothingToReload);
  });

  it("a document whose first fetch failed keeps its file name through 'recarregar'", async () => {
    const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const mediaId = t.graph.addMedia(PDF, 'application/pdf');
    const id = await t.graph.customerSays({ phone: '5511911113333', name: 'Cliente Nota' }, { type: 'document', document: { id: mediaId, mime_type: 'application/pdf', sha256: 'nao-confere', filename: 'NF-ção 123.pdf' } });
    const broken = await stored('wa-meta', id);
    expect(broken.document).toBeFalsy();
    expect(broken.error).toMatchObject({ type: 'document', mediaId, fileName: 'NF-ção 123.pdf' });
    const reloaded = await t.api(`/api/rooms/${broken.roomId}/reloadMessage`, { method: 'PATCH', body: { messageId: broken.id }, token: t.tokens.agente });
    expect(reloaded.status, reloaded.text).toBe(200);
    expect(reloaded.body.data.document).toMatchObject({ fileName: 'NF-ção 123.pdf', mimeType: 'application/pdf' });
  });

  it('a media the provider cannot serve: placeholder, and recarregar answers a pt-BR error', async () => {
    const id = await t.graph.customerSays({ phone: '5511911113333', name: 'Cliente Sem Mídia' }, { type: 'document', document: { id: '999000111', mime_type: 'application/pdf', filename: 'boleto.pdf' } });
    const broken = await stored('wa-meta', id);
    expect(broken.error).toMatchObject({ type: 'document', mediaId: '999000111' });
    const res = await t.api(`/api/rooms/${broken.roomId}/reloadMessage`, { method: 'PATCH', body: { messageId: broken.id }, token: t.tokens.admin });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'media_fetch_failed', errorMessage: messages.whatsapp.mediaFetchFailed });
  });

  it('Z-API: downloads the callback URL of a trusted provider host', async () => {
    const url = t.zapi.addMedia(PNG, 'image/png', 'png');
    const res = await t.zapi.customerSays({ phone: '5511911114444', name: 'Cliente Z Foto' }, { image: { mimeType: 'image/png', imageUrl: url, caption: 'foto' } });
    expect(res.status).toBe(200);
    const message = await stored('wa-zapi', res.messageId);
    expect(message.image!.imageUrl).toMatch(/^\/api\/files\/acme\//);
    expect((await getBytes(message.image!.imageUrl, t.hosts.acme)).bytes.equals(PNG)).toBe(true);
  });
});
