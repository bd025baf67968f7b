import { createHash } from 'node:crypto';
import { isWebchat, researchPending, messages as texts, type Channel, type Message, type Room, type WebchatReceiptsInput, type WebchatSessionAnswer, type WebchatSessionInput } from '@atendimento/schemas';
import { conflict, notFound, validationError } from '../../errors';
import type { TokenService } from '../auth/tokens';
import type { ChatDeps } from './chat-deps';
import { newId, newSecret } from './ids';
import type { IngestService } from './ingest-service';
import type { MessageService, StoredUpload } from './message-service';

const DEFAULT_COLOR = '#1976D2';
/**
 * How long after a chat closed a reload still shows it (its messages, 'Conversa encerrada.'
 * and 'Iniciar nova conversa'): a visitor who reloads right after the goodbye sees it, one who
 * comes back tomorrow sees the start form. A survey still waiting keeps it as long as it waits.
 */
const CLOSED_SHOWN_MS = 30 * 60_000;

/** The visitor's identity on a channel: a hash of the key the widget keeps (the key itself is never stored). */
function identityOf(visitorKey: string): string {
  return createHash('sha256').update(visitorKey).digest('hex');
}

/**
 * The web-chat channel (docs/webchat.md): a visitor session is a secret visitor key kept by
 * the widget plus a short anonymous token limited to the visitor's open room. Visitor
 * messages go through the same `ingestInbound` as any channel; agents' messages reach the
 * visitor through the hub, and the widget reports delivered/read back.
 */
export function createWebchatService(deps: ChatDeps & { tokens: TokenService }, ingest: IngestService, messageService: MessageService) {
  const { db, clock, rooms, contacts, directory, feed, messages, tokens } = deps;

  async function webchatChannel(tenantId: string, channelId: string): Promise<Channel> {
    const channel = await directory.channel(tenantId, channelId);
    if (!channel || !channel.active || !isWebchat(channel.type)) throw notFound();
    return channel;
  }

  function channelInfo(channel: Channel): WebchatSessionAnswer['data']['channel'] {
    return {
      id: channel.id,
      displayName: channel.displayName,
      title: channel.webchat?.title || channel.displayName || texts.webchat.title,
      welcome: channel.webchat?.welcome || texts.webchat.welcome,
      color: channel.webchat?.color || channel.color || DEFAULT_COLOR,
    };
  }

  /** The visitor's room, if the key belongs to its contact; 404 otherwise (never says which). */
  async function visitorRoom(tenantId: string, roomId: string, visitorKey: unknown): Promise<{ room: Room; channel: Channel; identity: string }> {
    if (typeof visitorKey !== 'string' || visitorKey.length < 20 || visitorKey.length > 100) throw notFound();
    const room = await rooms.findById(tenantId, roomId);
    if (!room || !isWebchat(room.channel) || !room.channelId) throw notFound();
    const channel = await webchatChannel(tenantId, String(room.channelId));
    const identity = identityOf(visitorKey);
    const contactId = await contacts.findIdentity(db, tenantId, channel.id, identity);
    if (!contactId || contactId !== room.author.id) throw notFound();
    return { room, channel, identity };
  }

  async function tokenFor(tenantId: string, contactId: string, roomId: string): Promise<string> {
    return tokens.sign({ sub: `visitor:${contactId}`, tid: tenantId, sid: 'webchat', typ: 'anon', room: roomId }, clock.now());
  }

  function externalIdOf(identity: string, clientId: string | undefined): string {
    // Namespaced by visitor, so one visitor's client id can never collide with another's.
    return `wc:${identity.slice(0, 24)}:${clientId ?? newId()}`;
  }

  async function ingestOne(tenantId: string, channel: Channel, identity: string, item: { clientId?: string; displayName?: string | null; email?: string | null; content: Parameters<IngestService['ingestInbound']>[2][number]['content'] }) {
    const [result] = await ingest.ingestInbound(tenantId, channel, [{
      externalId: externalIdOf(identity, item.clientId),
      timestamp: clock.now().toISOString(),
      contact: { phone: null, userId: identity, displayName: item.displayName ?? null, email: item.email ?? null },
      content: item.content,
    }]);
    return result!;
  }

  /** The visitor's last chat on the channel when it closed minutes ago or its survey still waits. */
  async function justClosed(tenantId: string, channelId: string, contactId: string): Promise<Room | null> {
    const last = await rooms.lastClosed(db, tenantId, channelId, `webchat:${contactId}`);
    if (!last) return null;
    const now = clock.now();
    const closedAt = Date.parse(last.closedBy?.closedAt ?? last.lifeControl.updatedAt ?? '');
    return researchPending(last, now) || now.getTime() - closedAt < CLOSED_SHOWN_MS ? last : null;
  }

  return {
    channelInfo,
    webchatChannel,

    /** Starts or resumes a visitor's conversation (POST /api/webchat/:channelId/session). */
    async session(tenantId: string, channelId: string, input: WebchatSessionInput): Promise<WebchatSessionAnswer['data']> {
      const channel = await webchatChannel(tenantId, channelId);
      const email = input.email?.trim() || null;
      if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw validationError([{ field: 'email', message: texts.validation.emailInvalid }]);
      const visitorKey = input.visitorKey ?? newSecret();
      const identity = identityOf(visitorKey);
      const contactId = await contacts.findIdentity(db, tenantId, channel.id, identity);
      let room = contactId ? await rooms.findOpen(db, tenantId, channel.id, `webchat:${contactId}`) : null;
      const text = input.text?.trim();
      // A reload after the chat closed: the survey waiting for an answer, or the goodbye just said.
      if (!room && !text && contactId) room = await justClosed(tenantId, channel.id, contactId);
      if (!room && text) {
        const result = await ingestOne(tenantId, channel, identity, { clientId: input.clientId, displayName: input.displayName?.trim() || null, email, content: { type: 'text', text } });
        room = result.roomId ? await rooms.findById(tenantId, result.roomId) : null;
      }
      const accessToken = room ? await tokenFor(tenantId, room.author.id, room.id) : null;
      return { visitorKey, roomId: room?.id ?? null, accessToken, expiresIn: tokens.ttlSeconds, channel: channelInfo(channel) };
    },

    /** A visitor's text (header X-Visitor-Key); idempotent on clientId. */
    async sendText(tenantId: string, roomId: string, visitorKey: unknown, input: { text: string; clientId?: string }): Promise<Message> {
      const { room, channel, identity } = await visitorRoom(tenantId, roomId, visitorKey);
      // A closed chat still takes the visitor's answer to its survey (docs/console-operations.md "Surveys").
      if (!room.active && !researchPending(room, deps.clock.now())) throw conflict('room_closed', texts.webchat.closed);
      const text = input.text.trim();
      if (!text) throw validationError([{ field: 'text', message: texts.validation.requiredField }]);
      const result = await ingestOne(tenantId, channel, identity, { clientId: input.clientId, content: { type: 'text', text } });
      return (await messages.findById(tenantId, result.messageId!))!;
    },

    /** A visitor's file, already checked and stored by the route. */
    async sendFile(tenantId: string, roomId: string, visitorKey: unknown, upload: StoredUpload, fields: { caption?: string; clientId?: string }): Promise<Message> {
      const { room, channel, identity } = await visitorRoom(tenantId, roomId, visitorKey);
      if (!room.active) throw conflict('room_closed', texts.webchat.closed);
      const result = await ingestOne(tenantId, channel, identity, {
        clientId: fields.clientId,
        content: { type: upload.kind, caption: fields.caption?.trim() || undefined, media: { url: upload.url, mimeType: upload.mimeType, fileName: upload.fileName } },
      });
      return (await messages.findById(tenantId, result.messageId!))!;
    },

    /** Checks the key before a file is read (so a stranger's upload is refused early). */
    async assertVisitor(tenantId: string, roomId: string, visitorKey: unknown): Promise<void> {
      const { room } = await visitorRoom(tenantId, roomId, visitorKey);
      if (!room.active) throw conflict('room_closed', texts.webchat.closed);
    },

    /** The widget received (delivered) or showed (read) our messages; statuses only move forward. */
    async receipts(tenantId: string, roomId: string, visitorKey: unknown, input: WebchatReceiptsInput): Promise<{ updated: number }> {
      const { room } = await visitorRoom(tenantId, roomId, visitorKey);
      const read = new Set(input.read ?? []);
      const all = [...new Set([...(input.delivered ?? []), ...read])];
      if (all.length === 0) return { updated: 0 };
      return feed.transaction(tenantId, async (trx, record) => {
        let updated = 0;
        const found = await messages.findByIds(tenantId, all, trx);
        for (const message of found) {
          if (message.roomId !== room.id || message.author.type === 'client' || message.annotation) continue;
          const next = await messageService.applyStatusIn(trx, record, tenantId, message, read.has(message.id) ? 'read' : 'delivered');
          if (next !== message) updated++;
        }
        return { updated };
      });
    },
  };
}
