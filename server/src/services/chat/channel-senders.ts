import type { Transaction } from '../../db/knex';
import {
  hasChannelAdapter, ProviderError, type ChannelAdapter, type MediaKind, type OutboundInteractive,
} from '@atendimento/integrations';
import { adapterOf, isWebchat, messages as texts, type Channel, type Message, type MessageError, type Room } from '@atendimento/schemas';

/**
 * Outbound delivery, one sender per kind of channel (docs/channels.md): our web chat in
 * process, and every provider channel through its adapter (services/whatsapp/whatsapp-sender.ts
 * wraps it with `createAdapterSender`). Which one a room gets follows its type's row in the
 * channel table; adding a provider needs no change here (docs/channels.md).
 */
export interface OutboundContext {
  tenantId: string;
  room: Room;
  channel: Channel | null;
  message: Message;
  /** The message being answered, when the provider quotes it. */
  replyTo: Message | null;
}

export interface ChannelSender {
  /**
   * True for our own web chat: the hub is the delivery, so a message is 'sent' when its
   * transaction commits and nothing is called afterwards.
   */
  readonly inProcess: boolean;
  /** Sends after commit; answers the provider's message id. */
  send(ctx: OutboundContext): Promise<{ externalId: string | null }>;
  react(ctx: OutboundContext, emoji: string): Promise<void>;
  edit(ctx: OutboundContext, text: string): Promise<void>;
  remove(ctx: OutboundContext): Promise<void>;
  /**
   * Checked inside the send's transaction before the message is stored (e.g. the WhatsApp
   * 24-hour window): throwing an AppError refuses the send with its 4xx and stores nothing.
   */
  beforeSend?(trx: Transaction, tenantId: string, room: Room, kind: 'free' | 'template'): Promise<void>;
  /** After an agent read the room: the provider's read receipt up to `message` (best effort). */
  markRead?(tenantId: string, room: Room, message: Message): Promise<void>;
}

/** A failure the console shows on the bubble (status.errors[0].titleptBR || title). */
export class SendFailure extends Error {
  constructor(readonly errors: MessageError[]) {
    super(errors[0]?.title ?? 'send failed');
  }
}

/** The web chat: visitors read messages from the hub; edits, reactions and deletions are record changes. */
const webchatSender: ChannelSender = {
  inProcess: true,
  async send() {
    return { externalId: null };
  },
  async react() {},
  async edit() {},
  async remove() {},
};

const MEDIA_KINDS: MediaKind[] = ['image', 'video', 'audio', 'document', 'sticker'];

function mediaOf(message: Message, absolute: (url: string) => string): { kind: MediaKind; url: string; caption?: string; fileName?: string } | null {
  if (!MEDIA_KINDS.includes(message.type as MediaKind)) return null;
  const url = message.image?.imageUrl ?? message.video?.videoUrl ?? message.audio?.audioUrl ?? message.document?.documentUrl ?? message.sticker?.stickerUrl;
  if (!url) return null;
  return {
    kind: message.type as MediaKind,
    url: absolute(url),
    ...(message.caption && { caption: message.caption }),
    ...(message.document?.fileName && { fileName: message.document.fileName }),
  };
}

/** Template header media uploaded to us (`/api/files/...`) must reach the provider as an absolute URL. */
function absoluteComponents(components: unknown[], absolute: (url: string) => string): unknown[] {
  return components.map((c) => {
    const params = (c as { parameters?: unknown })?.parameters;
    if (!Array.isArray(params)) return c;
    return {
      ...(c as object),
      parameters: params.map((p: Record<string, any>) => {
        const kind = ['image', 'video', 'document'].find((k) => typeof p?.[k]?.link === 'string');
        return kind ? { ...p, [kind]: { ...p[kind], link: absolute(p[kind].link) } } : p;
      }),
    };
  });
}

function failure(error: unknown): SendFailure {
  if (error instanceof ProviderError) {
    return new SendFailure([{ title: error.title, titleptBR: error.titlePtBR, code: error.code }]);
  }
  return new SendFailure([{ title: error instanceof Error ? error.message : String(error) }]);
}

/**
 * Wraps a provider adapter (integrations/src/channels/contract.ts) as a sender: text, media,
 * replies, reactions, edits and deletions go to `room.chatId`; provider errors become
 * `SendFailure` with the adapter's pt-BR titles. `absoluteUrl` turns our /api/files/... into a
 * URL the provider can download.
 */
export function createAdapterSender(
  adapterFor: (channel: Channel) => ChannelAdapter,
  absoluteUrl: (path: string) => string,
  retry: { attempts: number; baseDelayMs: number } = { attempts: 3, baseDelayMs: 500 },
): ChannelSender {
  /** Throttling and transient failures (ProviderError.retryable) are retried with back-off; the caller's mistakes never. */
  async function withRetry<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ProviderError) || !error.retryable || attempt >= retry.attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, retry.baseDelayMs * 2 ** (attempt - 1)));
      }
    }
  }
  const adapter = (ctx: OutboundContext) => {
    if (!ctx.channel) throw new SendFailure([{ title: 'channel not found', titleptBR: texts.whatsapp.channelNotFound }]);
    return adapterFor(ctx.channel);
  };
  return {
    inProcess: false,
    async send(ctx) {
      const a = adapter(ctx);
      const options = ctx.replyTo?.messageExtId ? { replyToExternalId: ctx.replyTo.messageExtId } : undefined;
      try {
        const media = mediaOf(ctx.message, absoluteUrl);
        const template = ctx.message.type === 'template' ? ctx.message.template : undefined;
        const interactive = ctx.message.type === 'interactive' && (ctx.message.interactive?.type === 'button' || ctx.message.interactive?.type === 'list') ? (ctx.message.interactive as unknown as OutboundInteractive) : undefined;
        const result = await withRetry(() =>
          interactive
            ? a.sendInteractive(ctx.room.chatId, interactive, options)
            : template
            ? a.sendTemplate(ctx.room.chatId, { name: template.name, language: template.language ?? 'pt_BR', ...(template.components && { components: absoluteComponents(template.components, absoluteUrl) }) })
            : media
              ? a.sendMedia(ctx.room.chatId, media, options)
              : a.sendText(ctx.room.chatId, ctx.message.text ?? '', options),
        );
        return { externalId: result.externalId };
      } catch (error) {
        throw failure(error);
      }
    },
    async react(ctx, emoji) {
      if (!ctx.message.messageExtId) throw new SendFailure([{ title: 'message has no external id' }]);
      try {
        const a = adapter(ctx);
        await withRetry(() => a.sendReaction(ctx.room.chatId, ctx.message.messageExtId!, emoji));
      } catch (error) {
        throw failure(error);
      }
    },
    async edit(ctx, text) {
      const a = adapter(ctx);
      if (!a.supportsEdit || !ctx.message.messageExtId) return;
      try {
        await a.editText(ctx.room.chatId, ctx.message.messageExtId, text);
      } catch (error) {
        throw failure(error);
      }
    },
    async remove(ctx) {
      const a = adapter(ctx);
      if (!a.supportsDelete || !ctx.message.messageExtId) return;
      try {
        await a.deleteMessage(ctx.room.chatId, ctx.message.messageExtId);
      } catch (error) {
        throw failure(error);
      }
    },
  };
}

/** Picks the sender of a room's channel; null when the channel has none configured yet. */
export type SenderFor = (room: Room) => ChannelSender | null;

/**
 * Our web chat (and internal rooms) in process; a type whose row names an adapter kind with a
 * sender of its own in `byAdapter` (the mail channel: SMTP) through it; a type whose row names
 * a registered provider adapter through `provider`; anything else has no sender (its sends
 * fail with 'Erro no Envio').
 */
export function createSenderFor(options: { provider?: ChannelSender | null; byAdapter?: Record<string, ChannelSender> } = {}): SenderFor {
  return (room) => {
    if (room.internal || isWebchat(room.channel)) return webchatSender;
    const kind = adapterOf(room.channel);
    if (kind && options.byAdapter?.[kind]) return options.byAdapter[kind]!;
    if (hasChannelAdapter(kind)) return options.provider ?? null;
    return null;
  };
}
