import type { AppConfig } from '../domain';
import { messages as texts } from '../messages';
import { claimOn } from '../claim-defaults';

/**
 * Transfers (seed 001 §4 "Transfer", §5, §6 "Transfer targets"; docs/transfers.md). The rules
 * here run in the transfer dialog and on the server alike: what the dialog accepts is what the
 * server accepts.
 */

/** PATCH /api/rooms/:id/transfer: to agents (seed: agents, from, queues, remainInChat, transferJustify). */
export interface TransferRoomInput {
  agents: string[];
  /** Stay in the chat after transferring; default: tenant claim remainInChat, true when unset. */
  remainInChat?: boolean;
  transferJustify?: { justify?: string | null; obs?: string | null };
}

/** PATCH /api/rooms/:id/queues: move to queues (all agents leave; routing picks the next one). */
export interface MoveQueuesInput {
  queues: string[];
  transferJustify?: { justify?: string | null; obs?: string | null };
}

/** An agent as the transfer dialog lists them. */
export interface TransferAgentOption {
  id: string;
  displayName: string;
  email: string;
  photoUrl: string | null;
  depts: { id: string; displayName: string }[];
  online: boolean;
  /** False for offline agents unless enableAbsentTransfer. */
  selectable: boolean;
}

/** A queue as the queue dialog lists it. */
export interface TransferQueueOption {
  id: string;
  name: string;
  departmentId: string | null;
  /** Agents of the queue online now; 0 = marked 'sem agentes online'. */
  onlineAgents: number;
  /** False when nobody is online unless allowOfflineTransfer; false for the room's current queue. */
  selectable: boolean;
}

/** GET /api/rooms/:id/transferTargets. */
export interface TransferTargets {
  agents: TransferAgentOption[];
  queues: TransferQueueOption[];
  /** Justification options (AppConfig.transferJustify); empty = none required. */
  justifies: string[];
  /** The remainInChat switch's starting value. */
  remainInChat: boolean;
  /** disableChooseTransfer / disableChooseQueue for this user (admins are never disabled). */
  canTransfer: boolean;
  canMoveQueues: boolean;
}

const justifySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { justify: { type: ['string', 'null'], maxLength: 200 }, obs: { type: ['string', 'null'], maxLength: 2000 } },
} as const;

const ids = { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } } as const;
/** The seed's calls also send `from` (who transfers); the server takes the caller instead, so it is accepted and ignored. */
const from = { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'object' }, { type: 'null' }] } as const;

export const transferSchemas = {
  transfer: {
    type: 'object',
    additionalProperties: false,
    required: ['agents'],
    properties: { agents: ids, remainInChat: { type: 'boolean' }, transferJustify: justifySchema, from },
  },
  moveQueues: {
    type: 'object',
    additionalProperties: false,
    required: ['queues'],
    properties: { queues: ids, transferJustify: justifySchema, from },
  },
} as const;

/** The starting value of "stay in the chat" (seed: the tenant claim, true when unset). */
export function defaultRemainInChat(config: Pick<AppConfig, 'claims'>): boolean {
  return claimOn(config.claims, 'remainInChat');
}

export interface TransferProblem {
  field: 'agents' | 'queues' | 'transferJustify.justify';
  message: string;
}

/**
 * The dialog's checks (seed 001 §5): at least one agent (or queue), and with transferJustify
 * options configured, one of them chosen.
 */
export function validateTransfer(
  config: Pick<AppConfig, 'transferJustify'>,
  input: { kind: 'agents' | 'queues'; ids: string[]; justify?: string | null },
): TransferProblem | null {
  if (input.ids.length === 0) return input.kind === 'agents' ? { field: 'agents', message: texts.chat.chooseAgents } : { field: 'queues', message: texts.transfer.chooseQueues };
  const options = config.transferJustify ?? [];
  const justify = input.justify?.trim() || null;
  if (options.length > 0 && (!justify || !options.includes(justify))) return { field: 'transferJustify.justify', message: texts.chat.chooseTransferJustify };
  return null;
}

/** Seed 001 §6: an offline agent is a target only with enableAbsentTransfer. */
export function agentSelectable(config: Pick<AppConfig, 'claims'>, agent: { online: boolean }): boolean {
  return agent.online || Boolean(config.claims?.enableAbsentTransfer);
}

/** Seed 001 §6: a queue nobody serving it is online is a target only with allowOfflineTransfer. */
export function queueSelectable(config: Pick<AppConfig, 'claims'>, queue: { onlineAgents: number }): boolean {
  return queue.onlineAgents > 0 || Boolean(config.claims?.allowOfflineTransfer);
}

/** The system note a transfer leaves in the chat (agents and supervisors read it; the customer does not). */
export function transferNote(input: { by: string; to: string[]; queue: boolean; justify: string | null; obs: string | null }): string {
  const base = (input.queue ? texts.transfer.noteQueues : texts.transfer.noteAgents).replace('{by}', input.by).replace('{to}', input.to.join(', '));
  const parts = [base];
  if (input.justify) parts.push(texts.transfer.noteJustify.replace('{justify}', input.justify));
  if (input.obs) parts.push(texts.transfer.noteObs.replace('{obs}', input.obs));
  return parts.join(' ');
}
