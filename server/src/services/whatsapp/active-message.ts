import { channelIs, messages as texts, type Channel, type Message, type Room } from '@atendimento/schemas';
import type { ActiveMessageInput, ActiveMessageOptions } from '@atendimento/schemas/chat/whatsapp';
import { badRequest, forbidden, notFound } from '../../errors';
import type { DepartmentRepository } from '../../db/repositories/department-repository';
import type { ChatDeps } from '../chat/chat-deps';
import type { MessageService } from '../chat/message-service';
import type { RoomService } from '../chat/room-service';
import { userOnly, type ChatScope, type UserViewer } from '../chat/room-scope';
import { windowClosed, windowOpen } from './messaging-window';
import { validateWhatsapp } from './whatsapp-validation';

/**
 * 'Mensagem Ativa' (seed 001 §2 contact drawer, §5 validation; docs/whatsapp.md): an agent with
 * claim allowActiveMessage starts a conversation on a WhatsApp channel. The claim, the channel,
 * the department and the 24-hour window are checked here, before any room is opened; then the
 * contact's open room on the channel (or a new one) is attended by the caller and the text or
 * template goes out through the ordinary send path (which checks the window again in its
 * transaction). The room's chat id follows the seed's Brazilian 9th-digit rule (`activeChatId`).
 */

/**
 * The Brazilian 9th-digit twin of a WhatsApp chat id (seed 001 §5: "Chat ids for active
 * messages get the digit 9 inserted at position 5, or removed for long ids"): a 13-digit
 * `55`+DDD+`9`+8 id loses the 9; a 12-digit `55`+DDD+8 mobile id (first digit 6–9) gets it
 * after the DDD. Anything else (other countries, landlines 2–5, e-mails) has no twin: null.
 */
export function ninthDigitTwin(chatId: string): string | null {
  if (!/^55\d{10,11}$/.test(chatId)) return null;
  if (chatId.length === 13) return chatId[4] === '9' ? chatId.slice(0, 4) + chatId.slice(5) : null;
  return /[6-9]/.test(chatId[4]!) ? `${chatId.slice(0, 4)}9${chatId.slice(4)}` : null;
}

/** The seed's exact text as errorMessage (the dialog shows it as is). */
const choose = (field: string, message: string) => badRequest('validation_failed', message, [{ field, message }]);

/** Channels an active message may use: active, visible WhatsApp-type channels. */
function offered(channel: Channel | null): channel is Channel {
  return Boolean(channel && channel.active && !channel.hide && channelIs(channel.type, 'whatsapp'));
}

export function createActiveMessage(deps: Pick<ChatDeps, 'db' | 'clock' | 'directory' | 'contacts' | 'rooms'> & { departments: DepartmentRepository }, rooms: RoomService, messages: MessageService) {
  const { db, directory, contacts } = deps;

  function assertClaim(viewer: UserViewer): void {
    if (!viewer.admin && !viewer.claims.allowActiveMessage) throw forbidden('active_message_forbidden', texts.whatsapp.activeMessageForbidden);
  }

  /** The caller's departments, by name (the dialog's 'departamento' choice). */
  async function departmentsOf(tenantId: string, viewer: UserViewer): Promise<{ id: string; displayName: string }[]> {
    return deps.departments.activeNamed(tenantId, [...new Set([...viewer.agentOf, ...viewer.supervisorOf])]);
  }

  async function loadContact(tenantId: string, contactId: string) {
    const contact = await contacts.findById(db, tenantId, contactId);
    if (!contact) throw notFound();
    return contact;
  }

  /**
   * The chat id of the active message's room (docs/whatsapp.md "Mensagem Ativa: chat id"): the
   * form WhatsApp already uses with this contact on the channel wins — an open room under the
   * phone or its 9th-digit twin, else the newest past room under either —; with no such room,
   * the seed's rule: the twin. Undefined (the contact's phone as is) when the phone has no twin.
   */
  async function activeChatId(tenantId: string, channelId: string, phone: string | null): Promise<string | undefined> {
    const twin = phone ? ninthDigitTwin(phone) : null;
    if (!phone || !twin) return undefined;
    for (const id of [phone, twin]) if (await deps.rooms.findOpen(db, tenantId, channelId, id)) return id;
    const [past] = (await Promise.all([phone, twin].map((id) => deps.rooms.byChatId(tenantId, id, channelId, null, 1))))
      .flat()
      .sort((a, b) => String(b.lastMessageAt ?? '').localeCompare(String(a.lastMessageAt ?? '')));
    return past?.chatId ?? twin;
  }

  return {
    /** GET /api/rooms/activeMessage/options?contactId=: channels (with the window state for this contact) and departments. */
    async options(scope: ChatScope, contactId: string): Promise<ActiveMessageOptions> {
      const { tenantId } = scope;
      const viewer = userOnly(scope.viewer);
      assertClaim(viewer);
      const contact = await loadContact(tenantId, contactId);
      const channels = (await directory.channels(tenantId)).filter(offered).map((c) => ({
        id: c.id, displayName: c.displayName, phoneNumber: c.phoneNumber ?? null, type: c.type,
        windowOpen: windowOpen(deps.clock, contact, c.type, c.id), templates: channelIs(c.type, 'templates'),
      }));
      return { channels, departments: await departmentsOf(tenantId, viewer) };
    },

    /**
     * POST /api/rooms/activeMessage. 403 without the claim or for a blocked contact; 400 with
     * the seed's texts without a channel or department; 422 for free text outside the window.
     */
    async send(scope: ChatScope, body: unknown, headerKey: string | null): Promise<{ room: Room; message: Message; created: boolean }> {
      const { tenantId } = scope;
      const viewer = userOnly(scope.viewer);
      assertClaim(viewer);
      const raw = (body ?? {}) as Record<string, unknown>;
      // The seed's own texts for the two choices the dialog asks for.
      if (typeof raw.channelId !== 'string' || !raw.channelId) throw choose('channelId', texts.chat.chooseChannel);
      const departments = await departmentsOf(tenantId, viewer);
      if (departments.length > 0 && (typeof raw.departmentId !== 'string' || !raw.departmentId)) throw choose('departmentId', texts.chat.chooseDepartment);
      const input = validateWhatsapp<ActiveMessageInput>('activeMessage', body);
      if (Boolean(input.text) === Boolean(input.template)) throw badRequest('validation_failed', texts.whatsapp.activeMessageContent, [{ field: 'text', message: texts.whatsapp.activeMessageContent }]);
      if (input.departmentId && !viewer.admin && !departments.some((d) => d.id === input.departmentId)) throw choose('departmentId', texts.chat.chooseDepartment);

      const channel = await directory.channel(tenantId, input.channelId);
      if (!offered(channel)) throw choose('channelId', texts.chat.chooseChannel);
      const contact = await loadContact(tenantId, input.contactId);
      if (contact.blockedSending) throw forbidden('contact_blocked', texts.chatServer.contactBlocked);
      if (input.template && !channelIs(channel.type, 'templates')) throw badRequest('validation_failed', texts.whatsapp.templatesUnsupported, [{ field: 'template', message: texts.whatsapp.templatesUnsupported }]);
      // Refused before a room is opened: nothing is created for a message that cannot go out.
      if (input.text && !windowOpen(deps.clock, contact, channel.type, channel.id)) throw windowClosed();

      const chatId = await activeChatId(tenantId, channel.id, contact.phone);
      const opened = await rooms.create(scope, { contactId: contact.id, channelId: channel.id, ...(input.departmentId && { departmentId: input.departmentId }) }, chatId ? { chatId } : {});
      let room = opened.room;
      // An open room waiting in a queue (or attended by a supervisor only) is taken by the caller.
      if (!room.agents.some((a) => a.id === viewer.id)) room = await rooms.push(scope, room.id);
      const key = input.clientId ?? headerKey;
      const result = input.template
        ? await messages.sendTemplate(scope, room.id, input.template, key)
        : await messages.sendText(scope, room.id, { text: input.text!, ...(key && { clientId: key }) }, null);
      return { room: (await deps.rooms.findById(tenantId, room.id)) ?? room, message: result.message, created: result.created };
    },
  };
}
