/** Channel kinds a room can come from (seed 001 §3 "Chat (room)" channel). */
export const CHANNEL_TYPES = ['zApi', 'wapi', 'wa', 'meta', 'whatsapp', 'dialog360', 'webchat', 'widget', 'mail'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** WhatsApp-type channels (seed 001 §9). */
export const WHATSAPP_CHANNELS: readonly ChannelType[] = ['zApi', 'wa', 'meta', 'whatsapp', 'wapi', 'dialog360'];

/** Origins listed on 'Todas Filas' (seed 001 §9 plus our own web chat, docs/chat.md). */
export const ALL_QUEUES_ORIGINS: readonly string[] = ['dialog360', 'zApi', 'wa', 'meta', 'wapi', 'webchat', 'widget'];

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
