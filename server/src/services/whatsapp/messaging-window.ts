import { channelIs, messages as texts, type Room } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Transaction } from '../../db/knex';
import { lastReplyAt, type ChatContactRepository } from '../../db/repositories/chat-contact-repository';
import { AppError } from '../../errors';

/** How long after the contact's last message free-form messages may go (Cloud API). */
const WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Seed 001 §4 "Composer restriction": on channel types whose row says `window24h` (Cloud API),
 * free-form messages need the contact's last message within 24 hours (unknown contact: closed;
 * a contact without the whatsapp channel: not restricted).
 */
export function windowOpen(clock: Clock, contact: Record<string, unknown> | null, channelType: string, channelId: string | null): boolean {
  if (!channelIs(channelType, 'window24h')) return true;
  if (contact && Array.isArray(contact.channels) && !contact.channels.includes('whatsapp')) return true;
  const at = channelId ? lastReplyAt(contact, channelId) : NaN;
  return Number.isFinite(at) && clock.now().getTime() - at < WINDOW_MS;
}

/** The error a free-form message outside the window gets (422, before anything is stored). */
export function windowClosed(): AppError {
  return new AppError(422, 'whatsapp_window_closed', texts.whatsapp.windowClosed);
}

/** `windowOpen` for a room inside the send's transaction; throws `windowClosed()` when shut. */
export async function assertWindowOpen(deps: { clock: Clock; contacts: ChatContactRepository }, trx: Transaction, tenantId: string, room: Room): Promise<void> {
  if (!channelIs(room.channel, 'window24h')) return;
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
  const contact = room.author?.id ? await deps.contacts.findById(trx, tenantId, room.author.id) : null;
  if (!windowOpen(deps.clock, contact, room.channel, channelId ? String(channelId) : null)) throw windowClosed();
}
