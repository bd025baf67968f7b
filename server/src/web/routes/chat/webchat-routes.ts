import type { Context } from 'koa';
import { webchatAssets, webchatLoaderScript, webchatPageHtml } from '@atendimento/integrations/webchat/index';
import type { WebchatReceiptsInput, WebchatSessionInput } from '@atendimento/schemas';
import { tooManyRequests } from '../../../errors';
import type { Chat } from '../../../services/chat';
import { validateChat } from '../../../services/chat/chat-validation';
import { access, type ApiRegistry } from '../../access';
import { bodyOrEmpty } from '../../request';
import { readChatUpload, storeChatUpload } from './chat-upload';

/** The visitor's secret (kept by the widget in localStorage); never logged, never stored in clear. */
function visitorKey(ctx: Context): string {
  return ctx.get('X-Visitor-Key');
}

/**
 * Origins allowed to frame the visitor page: the channel's allowedOrigins, else any site.
 * Only scheme://host[:port] values pass, so a setting cannot inject CSP directives.
 */
function frameAncestors(allowed: string[] | undefined): string {
  const origins = (allowed ?? []).filter((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o));
  return origins.length ? `'self' ${origins.join(' ')}` : '*';
}

/**
 * The web-chat channel (docs/chat.md "Web chat"). Everything lives under /api/webchat so the
 * page can be framed by the customer's site (pages outside /api are served SAMEORIGIN) with
 * its own CSP:
 * - GET  /api/webchat/:channelId/widget.js   embed script (button + iframe)
 * - GET  /api/webchat/:channelId/page        hosted page; page.js / page.css beside it
 * - POST /api/webchat/:channelId/session     start or resume: { visitorKey, roomId, accessToken }
 * - POST /api/webchat/rooms/:roomId/message[/file], /receipts   with header X-Visitor-Key
 * Reading (GET /api/rooms/:id, /messages and /ws) uses the anonymous accessToken.
 */
export function registerChatWebchatRoutes(api: ApiRegistry, chat: Chat): void {
  const { webchat } = chat;

  api.add({
    method: 'GET',
    path: '/api/webchat/:channelId/widget.js',
    access: access.public,
    handler: async (ctx) => {
      const channel = await webchat.webchatChannel(ctx.state.tenant.id, String(ctx.params.channelId));
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.body = webchatLoaderScript(webchat.channelInfo(channel));
    },
  });

  api.add({
    method: 'GET',
    path: '/api/webchat/:channelId/page',
    access: access.public,
    handler: async (ctx) => {
      const channel = await webchat.webchatChannel(ctx.state.tenant.id, String(ctx.params.channelId));
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set(
        'Content-Security-Policy',
        `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors(channel.webchat?.allowedOrigins)}`,
      );
      ctx.body = webchatPageHtml(webchat.channelInfo(channel), `/api/webchat/${encodeURIComponent(channel.id)}/`);
    },
  });

  for (const [name, asset] of Object.entries(webchatAssets)) {
    api.add({
      method: 'GET',
      path: `/api/webchat/:channelId/${name}`,
      access: access.public,
      handler: (ctx) => {
        ctx.type = asset.type;
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.body = asset.body;
      },
    });
  }

  api.add({
    method: 'POST',
    path: '/api/webchat/:channelId/session',
    access: access.public,
    handler: async (ctx) => {
      const input = validateChat<WebchatSessionInput>('webchatSession', bodyOrEmpty(ctx));
      if (input.text) {
        // Starting a conversation writes a contact and a room: limited per visitor IP.
        const key = `${ctx.state.tenant.id}:${ctx.ip}`;
        const wait = chat.webchatLimiter.retryAfter(key);
        if (wait > 0) throw tooManyRequests(wait);
        chat.webchatLimiter.hit(key);
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await webchat.session(ctx.state.tenant.id, String(ctx.params.channelId), input) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/webchat/rooms/:roomId/message',
    access: access.public,
    handler: async (ctx) => {
      const input = validateChat<{ text: string; clientId?: string }>('webchatMessage', bodyOrEmpty(ctx));
      const message = await webchat.sendText(ctx.state.tenant.id, String(ctx.params.roomId), visitorKey(ctx), input);
      ctx.status = 201;
      ctx.body = { meta: { ok: true }, data: message };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/webchat/rooms/:roomId/message/file',
    access: access.public,
    handler: async (ctx) => {
      const tenantId = ctx.state.tenant.id;
      const roomId = String(ctx.params.roomId);
      // Same limits as agents (seed 001 §5); strangers are refused before the body is read.
      await webchat.assertVisitor(tenantId, roomId, visitorKey(ctx));
      const upload = await readChatUpload(ctx, chat.blobs);
      const stored = await storeChatUpload(chat.blobs, tenantId, upload);
      const message = await webchat.sendFile(tenantId, roomId, visitorKey(ctx), stored, {
        caption: upload.fields.caption?.slice(0, 4000),
        clientId: upload.fields.clientId?.slice(0, 100) || undefined,
      });
      ctx.status = 201;
      ctx.body = { meta: { ok: true }, data: message };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/webchat/rooms/:roomId/receipts',
    access: access.public,
    handler: async (ctx) => {
      const input = validateChat<WebchatReceiptsInput>('webchatReceipts', bodyOrEmpty(ctx));
      ctx.body = { data: await webchat.receipts(ctx.state.tenant.id, String(ctx.params.roomId), visitorKey(ctx), input) };
    },
  });
}
