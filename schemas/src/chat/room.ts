import type { ChannelType, Destination } from './channel';
import type { MessageAuthorType, MessageType } from './message';

/**
 * The chat room in the shape seed 001 §3 "Chat (room)" names. Stored as JSON beside indexed
 * columns (room number, chat id, channel, active, inAttend, unread, last message date...) and
 * membership rows for agents, queues, their histories and tags, so every tab is an index read.
 */

/** The contact a room talks to (seed: author id, displayName, photoUrl, email, chatId, phone, type). */
export interface RoomAuthor {
  /** Contact id. */
  id: string;
  displayName: string;
  photoUrl: string | null;
  email: string | null;
  chatId: string;
  phone: string | null;
  type: 'client';
  /** From the contact: blocked for sending ('Contato Bloqueado'). */
  blockedSending?: boolean;
}

export interface RoomAgent {
  id: string;
  displayName: string;
}

/** A queue on a room: departments' queues are "depto" + department id, agent queues "agent" + id. */
export interface RoomQueue {
  id: string;
  name: string;
  displayName: string;
  parent: string | null;
}

export interface LastMessage {
  text: string;
  /** True when the last author is the contact and no agent has read it yet. */
  unread: boolean;
  author: { type: MessageAuthorType; id?: string; displayName?: string };
  lifeControl: { createdAt: string };
  messageId: string;
  type: MessageType;
  /** Delivery flags of the last message when an agent sent it (card tick). */
  status?: { sent?: boolean; delivered?: boolean; read?: boolean; failed?: boolean } | null;
}

export interface OnHold {
  active: boolean;
  message: string | null;
}

/** NPS or CSAT answer; 'answerdAt' keeps the seed's spelling (002 §3). */
export interface SurveyAnswer {
  value: number;
  reason: string | null;
  answerdAt: string | null;
}

/** Who closed a room and how (seed 001 §3 "Closure", §7 closedBy). */
export interface ClosedBy {
  id: string;
  displayName: string;
  justify: string | null;
  obs: string | null;
  /** Next-contact date DD/MM/YYYY (only with tenant claim hasNextContact). */
  nextContact: string | null;
  closedAt: string;
  /** Closed with closeNoMessage: the contact was not told. */
  noMessage: boolean;
  /** Closed by POST /api/rooms/massClose. */
  mass: boolean;
}

export interface TransferRecord {
  transferTo: string[];
  transferFrom: string | null;
  transferBy: string;
  transferObs: string | null;
  transferJustify: string | null;
  trasferQueues?: string[];
}

export interface Room {
  id: string;
  /** Chat number, per tenant, from 1. */
  roomInc: number;
  /** Phone (digits) or e-mail; web-chat rooms use the visitor's e-mail or "webchat:" + visitor id. */
  chatId: string;
  channel: ChannelType;
  channelId: string | string[] | null;
  channelIdTextit: string | null;
  origin: string;
  destination: Destination;
  /** Department whose queue the room belongs to (channel default, then its queues). */
  departmentId: string | null;
  author: RoomAuthor;
  groupData: { subject: string; participants: { phone: string; displayName: string }[] } | null;
  internal: boolean;
  internalChatName: string | null;
  provisionalAgents: RoomAgent[];
  group: boolean;
  active: boolean;
  /** An agent is attending (false + queues set = queued, seed 001 §4). */
  inAttend: boolean;
  hide: boolean;
  agents: RoomAgent[];
  agentsHistory: RoomAgent[];
  queues: RoomQueue[];
  queuesHistory: RoomQueue[];
  /** Tag ids and their names, same order. */
  tags: string[];
  tagsNames: string[];
  contexts: string[];
  clientsName: string[];
  salesmenName: string[];
  lastMessage: LastMessage | null;
  /** Order key of the lists: the last message's date, or the room's creation before any message. */
  lastMessageAt: string;
  /** Contact messages not yet read by an agent (the card's unread count). */
  unreadCount: number;
  lastMessages: { contactMessage: { createdAt: string; messageId: string } | null; agentMessage: { createdAt: string; messageId: string } | null };
  messagesCount: { agentMessage: number; contactMessage: number };
  /** A send (template/active message) is in flight; menu options are disabled meanwhile. */
  messageActive: boolean;
  onHold: OnHold;
  /** Message id the composer is answering (set while replying). */
  replyTo: string | null;
  referal: { source_id?: string; source_url?: string; headline?: string } | null;
  nps: SurveyAnswer | null;
  csat: SurveyAnswer | null;
  /** A survey sent at closing and not answered yet (schemas/src/chat/survey.ts). */
  research?: import('./survey').PendingResearch | null;
  /** When a survey of each kind was sent (the dashboard counts requested surveys, docs/reports.md). */
  npsRequestedAt?: string | null;
  csatRequestedAt?: string | null;
  subject: string | null;
  /**
   * The flow the bot should run in this chat (docs/flows.md): set when a reply to a campaign
   * with a flow hands the chat to the bot; the bot reads it with the room and reports the run.
   */
  flow?: { id: string; name: string } | null;
  /** Mail rooms: Message-ID of the thread's first mail; one open room per thread, not per contact (docs/email.md). */
  mailThreadId?: string | null;
  mailTo: string[];
  mailCC: string[];
  transferAgent: TransferRecord | null;
  transferQueue: TransferRecord | null;
  transferTime: string | null;
  annotated: boolean;
  vendId: string | null;
  lifeControl: { createdAt: string; updatedAt?: string | null; deletedAt: string | null };
  closedBy: ClosedBy | null;
  /**
   * Capability for the public page /chat/:publicToken (unguessable, never the room number).
   * Exchange it with POST /api/auth/anonymous { roomToken } for a token that reads this room.
   */
  publicToken: string;
}

/** The fields of a Room that carry no identity: what a new room starts with (fresh arrays each call). */
export type RoomState = Omit<Room, 'id' | 'roomInc' | 'chatId' | 'channel' | 'channelId' | 'channelIdTextit' | 'origin' | 'destination' | 'departmentId' | 'author' | 'internal' | 'active' | 'inAttend' | 'lastMessageAt' | 'unreadCount' | 'lifeControl' | 'publicToken'>;

/**
 * One definition of a new room's state, shared by the server's room factory, the repository
 * (filling what records written by older versions lack) and the console's fixtures.
 */
export function emptyRoomState(): RoomState {
  return {
    groupData: null,
    internalChatName: null,
    provisionalAgents: [],
    group: false,
    hide: false,
    agents: [],
    agentsHistory: [],
    queues: [],
    queuesHistory: [],
    tags: [],
    tagsNames: [],
    contexts: [],
    clientsName: [],
    salesmenName: [],
    lastMessage: null,
    lastMessages: { contactMessage: null, agentMessage: null },
    messagesCount: { agentMessage: 0, contactMessage: 0 },
    messageActive: false,
    onHold: { active: false, message: null },
    replyTo: null,
    referal: null,
    nps: null,
    csat: null,
    subject: null,
    mailTo: [],
    mailCC: [],
    transferAgent: null,
    transferQueue: null,
    transferTime: null,
    annotated: false,
    vendId: null,
    closedBy: null,
  };
}
