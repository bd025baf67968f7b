/**
 * The channel table: everything the product knows about a kind of channel, in one row per
 * type. Every list of channel types (WhatsApp-type, 24-hour window, templates, 'Todas Filas',
 * reply/edit options, labels, which adapter serves it) derives from here; a lint test
 * (tests/reliability/layering-lint.spec.ts) refuses a list of channel-type names anywhere else.
 *
 * To add a provider (docs/channels.md):
 * 1. Write its adapter in integrations/src/channels/ (the contract's header lists the steps)
 *    and a local server that plays the provider under integrations/src/providers/.
 * 2. Add one row here (or, in a test or a plug-in, `registerChannelType(type, row)`), with
 *    `adapter` naming the adapter kind the integrations registry knows.
 * Nothing else changes: webhooks, senders, the composer and the console's lists read the row.
 */
export interface ChannelTypeInfo {
  /** Chip label in the console. */
  label: string;
  /** Adapter kind that verifies webhooks and sends (integrations' registry); null: no sender here. */
  adapter: string | null;
  /** WhatsApp-type channel (seed 001 §9 "WhatsApp channel types"). */
  whatsapp: boolean;
  /** Cloud API customer-service window: outside 24 h only templates go (seed 001 §4 "Composer restriction"). */
  window24h: boolean;
  /** The provider takes approved templates (the composer's 'Template'). */
  templates: boolean;
  /** The provider takes interactive buttons/lists. */
  interactive: boolean;
  /** Listed on 'Todas Filas' (seed 001 §9 "All-queues origins", plus our web chat). */
  allQueues: boolean;
  /** 'Responder' on messages that came or went through it (seed 001 §6 "Message options"). */
  canReply: boolean;
  /** 'Editar' / 'Excluir' of one's own messages (seed 001 §6 "Message options"). */
  canEdit: boolean;
  /**
   * Reactions (seed 001 §5): 'all'; 'contactOnly' (meta: not on the product's own messages);
   * 'migratedOnly' (dialog360: only once the number is migrated to the Cloud API); 'none'.
   */
  reactions: 'all' | 'contactOnly' | 'migratedOnly' | 'none';
  /** Group conversations carry a group subject and participants (seed 001 §2 "Group drawer"). */
  groups: boolean;
  /** An admin may create a channel of this type (false: rooms of internal chats, which have no channel). */
  configurable?: boolean;
  /**
   * Queued chats go to agents by the department's agentSelectionRule (docs/routing.md); true
   * when left out. E-mail threads wait in the inbox tabs instead: only agents with the inbox
   * claim may take them.
   */
  autoAssign?: boolean;
}

const row = (label: string, overrides: Partial<ChannelTypeInfo>): ChannelTypeInfo => ({
  label,
  adapter: null,
  whatsapp: false,
  window24h: false,
  templates: false,
  interactive: false,
  allQueues: false,
  canReply: false,
  canEdit: false,
  reactions: 'all',
  groups: false,
  configurable: true,
  autoAssign: true,
  ...overrides,
});

const whatsappRow = (label: string, overrides: Partial<ChannelTypeInfo>): ChannelTypeInfo => row(label, { whatsapp: true, allQueues: true, interactive: true, ...overrides });
const cloudApiRow = (label: string, overrides: Partial<ChannelTypeInfo>): ChannelTypeInfo =>
  whatsappRow(label, { window24h: true, templates: true, canReply: true, ...overrides });

/** Built-in channel types (seed 001 §3 "Chat (room)" channel). */
export const CHANNEL_TABLE = {
  zApi: whatsappRow('Z-API', { adapter: 'zApi', canReply: true, canEdit: true, groups: true }),
  wapi: whatsappRow('WhatsApp', { groups: true, interactive: false }),
  wa: cloudApiRow('WhatsApp', { interactive: false }),
  meta: cloudApiRow('WhatsApp', { adapter: 'meta', reactions: 'contactOnly' }),
  whatsapp: cloudApiRow('WhatsApp', { allQueues: false, canReply: false, interactive: false }),
  dialog360: cloudApiRow('WhatsApp 360', { adapter: 'dialog360', reactions: 'migratedOnly' }),
  webchat: row('Web chat', { adapter: 'webchat', allQueues: true, canReply: true, canEdit: true }),
  widget: row('Web chat', { adapter: 'webchat', allQueues: true, canReply: true, canEdit: true }),
  mail: row('E-mail', { adapter: 'mail', autoAssign: false }),
  // Rooms of internal chats between agents (seed 001 §2 "Internal chat"): no channel, no sender, no routing.
  internal: row('Interno', { reactions: 'none', configurable: false, autoAssign: false }),
} satisfies Record<string, ChannelTypeInfo>;

export type ChannelType = keyof typeof CHANNEL_TABLE;

/**
 * Message sources that are not channels (seed 001 §3 Message `from`/`to`): the console
 * itself ('vueJs') and the bot ('textit'). Only their message options are known.
 */
const MESSAGE_SOURCES: Record<string, Pick<ChannelTypeInfo, 'canReply' | 'canEdit'>> = {
  vueJs: { canReply: true, canEdit: true },
  textit: { canReply: true, canEdit: false },
};

const extra = new Map<string, ChannelTypeInfo>();

/**
 * Adds a channel type at run time (a test's fake provider, a plug-in): one row, and every
 * derived list below includes it.
 */
export function registerChannelType(type: string, info: ChannelTypeInfo): void {
  if (type in CHANNEL_TABLE) throw new Error(`registerChannelType: "${type}" is built in; change its row in schemas/src/chat/channel.ts instead.`);
  extra.set(type, info);
}

/** The row of a channel type, or null for a type nobody registered. */
export function channelInfo(type: string | null | undefined): ChannelTypeInfo | null {
  if (!type) return null;
  return (CHANNEL_TABLE as Record<string, ChannelTypeInfo>)[type] ?? extra.get(type) ?? null;
}

/** Every known channel type (built-in first, then registered ones). */
export function channelTypes(where: (info: ChannelTypeInfo) => boolean = () => true): string[] {
  const all: [string, ChannelTypeInfo][] = [...Object.entries(CHANNEL_TABLE), ...extra.entries()];
  return all.filter(([, info]) => where(info)).map(([type]) => type);
}

/** True when the row of `type` says so (false for unknown types). */
export function channelIs(type: string | null | undefined, flag: 'whatsapp' | 'window24h' | 'templates' | 'interactive' | 'allQueues' | 'groups'): boolean {
  return channelInfo(type)?.[flag] === true;
}

/** Chip label of a channel type (the type itself when unknown). */
export function channelLabel(type: string | null | undefined): string {
  return channelInfo(type)?.label ?? String(type ?? '');
}

/** The adapter kind serving a channel type (adapterOf('widget') → 'webchat'), or null. */
export function adapterOf(type: string | null | undefined): string | null {
  return channelInfo(type)?.adapter ?? null;
}

/** Our own web chat (the widget and the public page): served in process, no provider between. */
export function isWebchat(type: string | null | undefined): boolean {
  return adapterOf(type) === 'webchat';
}

/** 'Responder' / 'Editar' for a message api (a channel type or a non-channel source). */
export function messageApiCan(api: string | null | undefined, what: 'canReply' | 'canEdit'): boolean {
  if (!api) return false;
  return channelInfo(api)?.[what] ?? MESSAGE_SOURCES[api]?.[what] ?? false;
}

/** Bot destinations (seed 001 §9): rooms handled by a bot, listed on the 'Bot' tab. */
export const BOT_DESTINATIONS = ['bot', 'textit', 'dialogflowCX', 'typebot', 'openAi'] as const;
export type Destination = 'vueJs' | (typeof BOT_DESTINATIONS)[number];

/**
 * A channel as the console sees it (seed 001 §3 "Channel"); provider credentials never reach
 * browsers. `departmentId` is the department whose queue receives new conversations.
 */
export interface Channel {
  id: string;
  type: ChannelType;
  displayName: string;
  phoneNumber: string | null;
  hide: boolean;
  active: boolean;
  color: string | null;
  menuOrder: number;
  migrated: boolean;
  claims: { closeChat?: boolean; closeChatNoMessage?: boolean; askResearch?: boolean };
  departmentId: string | null;
  /** Web chat only: texts and colour of the widget. */
  webchat?: WebchatSettings;
}

/** Web-chat widget settings kept on the channel (defaults in docs/webchat.md). */
export interface WebchatSettings {
  title?: string;
  welcome?: string;
  color?: string;
  /** Origins allowed to frame the visitor page; empty = any site. */
  allowedOrigins?: string[];
}
