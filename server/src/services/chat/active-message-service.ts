import { Ajv, type ValidateFunction } from 'ajv';
import { channelIs, messages as texts, type AppConfig, type Channel, type Message, type Room } from '@atendimento/schemas';
import { WHATSAPP_OUTBOUND_TEXTS, whatsappSchemas, type ActiveMessageInput, type ActiveMessageOptions } from '@atendimento/schemas/chat/whatsapp';
import { AppError, badRequest, forbidden, notFound } from '../../errors';
import type { ChatDeps } from './chat-deps';
import type { MessageService } from './message-service';
import type { RoomService } from './room-service';
import type { UserViewer, Viewer } from './room-scope';
import { WHATSAPP_TEXTS, hasWindow, windowOpen } from './whatsapp-service';

/**
 * 'Mensagem Ativa' (seed 001 §2 contact drawer, §5 validation; docs/whatsapp.md): an agent with
 * claim allowActiveMessage starts a conversation on a WhatsApp channel. The claim, the channel,
 * the department and the 24-hour window are checked here, before any room is opened; then the
 * contact's open room on the channel (or a new one) is attended by the caller and the text or
 * template goes out through the ordinary send path (which checks the window again in its
 * transaction). The room's chat id follows the seed's Brazilian 9th-digit rule (`activeChatId`).
 */

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** Validates a body against `whatsappSchemas[name]`; 400 with pt-BR field messages. */
export function validateWhatsapp<T>(name: keyof typeof whatsappSchemas, body: unknown, invalid: string = texts.validation.invalidValue): T {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(whatsappSchemas[name] as object);
    compiled.set(name, validate);
  }
  if (!validate(body ?? {})) {
    const seen = new Set<string>();
    const fields = (validate.errors ?? [])
      .map((e) => {
        const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : null;
        return { field: [path, missing].filter(Boolean).join('.') || '(body)', message: missing ? texts.validation.requiredField : invalid };
      })
      .filter((f) => (seen.has(f.field) ? false : (seen.add(f.field), true)));
    // One readable sentence: the caller's own message when given, else the first field's.
    throw badRequest('validation_failed', invalid === texts.validation.invalidValue ? fields[0]?.message ?? invalid : invalid, fields);
  }
  return body as T;
}

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

function userOnly(viewer: Viewer): UserViewer {
  if (viewer.kind !== 'user') throw forbidden();
  return viewer;
}

/** Channels an active message may use: active, visible WhatsApp-type channels. */
function offered(channel: Channel | null): channel is Channel {
  return Boolean(channel && channel.active && !channel.hide && channelIs(channel.type, 'whatsapp'));
}

export function createActiveMessageService(deps: ChatDeps, rooms: RoomService, messages: MessageService) {
  const { db, directory, contacts } = deps;

  function assertClaim(viewer: UserViewer): void {
    if (!viewer.admin && !viewer.claims.allowActiveMessage) throw forbidden('active_message_forbidden', WHATSAPP_OUTBOUND_TEXTS.activeMessageForbidden);
  }

  /** The caller's departments, by name (the dialog's 'departamento' choice). */
  async function departmentsOf(tenantId: string, viewer: UserViewer): Promise<{ id: string; displayName: string }[]> {
    const ids = [...new Set([...viewer.agentOf, ...viewer.supervisorOf])];
    if (ids.length === 0) return [];
    const rows = await db('departments').where({ tenant_id: tenantId, active: true }).whereNull('deleted_at').whereIn('id', ids).orderBy('display_name').select('id', 'display_name');
    return rows.map((r) => ({ id: String(r.id), displayName: String(r.display_name) }));
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
    async options(tenantId: string, viewerIn: Viewer, contactId: string): Promise<ActiveMessageOptions> {
      const viewer = userOnly(viewerIn);
      assertClaim(viewer);
      const contact = await loadContact(tenantId, contactId);
      const channels = (await directory.channels(tenantId)).filter(offered).map((c) => ({
        id: c.id, displayName: c.displayName, phoneNumber: c.phoneNumber ?? null, type: c.type,
        windowOpen: windowOpen(deps, contact, c.type, c.id), templates: hasWindow(c.type),
      }));
      return { channels, departments: await departmentsOf(tenantId, viewer) };
    },

    /**
     * POST /api/rooms/activeMessage. 403 without the claim or for a blocked contact; 400 with
     * the seed's texts without a channel or department; 422 for free text outside the window.
     */
    async send(tenantId: string, viewerIn: Viewer, config: AppConfig, body: unknown, headerKey: string | null): Promise<{ room: Room; message: Message; created: boolean }> {
      const viewer = userOnly(viewerIn);
      assertClaim(viewer);
      const raw = (body ?? {}) as Record<string, unknown>;
      // The seed's own texts for the two choices the dialog asks for.
      if (typeof raw.channelId !== 'string' || !raw.channelId) throw choose('channelId', texts.chat.chooseChannel);
      const departments = await departmentsOf(tenantId, viewer);
      if (departments.length > 0 && (typeof raw.departmentId !== 'string' || !raw.departmentId)) throw choose('departmentId', texts.chat.chooseDepartment);
      const input = validateWhatsapp<ActiveMessageInput>('activeMessage', body);
      if (Boolean(input.text) === Boolean(input.template)) throw badRequest('validation_failed', WHATSAPP_OUTBOUND_TEXTS.activeMessageContent, [{ field: 'text', message: WHATSAPP_OUTBOUND_TEXTS.activeMessageContent }]);
      if (input.departmentId && !viewer.admin && !departments.some((d) => d.id === input.departmentId)) throw choose('departmentId', texts.chat.chooseDepartment);

      const channel = await directory.channel(tenantId, input.channelId);
      if (!offered(channel)) throw choose('channelId', texts.chat.chooseChannel);
      const contact = await loadContact(tenantId, input.contactId);
      if (contact.blockedSending) throw forbidden('contact_blocked', texts.chatServer.contactBlocked);
      if (input.template && !hasWindow(channel.type)) throw badRequest('validation_failed', 'Templates não são suportados neste canal', [{ field: 'template', message: 'Templates não são suportados neste canal' }]);
      // Refused before a room is opened: nothing is created for a message that cannot go out.
      if (input.text && !windowOpen(deps, contact, channel.type, channel.id)) throw new AppError(422, 'whatsapp_window_closed', WHATSAPP_TEXTS.windowClosed);

      const chatId = await activeChatId(tenantId, channel.id, contact.phone);
      const opened = await rooms.create(tenantId, viewer, config, { contactId: contact.id, channelId: channel.id, ...(input.departmentId && { departmentId: input.departmentId }) }, chatId ? { chatId } : {});
      let room = opened.room;
      // An open room waiting in a queue (or attended by a supervisor only) is taken by the caller.
      if (!room.agents.some((a) => a.id === viewer.id)) room = await rooms.push(tenantId, viewer, config, room.id);
      const key = input.clientId ?? headerKey;
      const result = input.template
        ? await messages.sendTemplate(tenantId, viewer, config, room.id, input.template, key)
        : await messages.sendText(tenantId, viewer, config, room.id, { text: input.text!, ...(key && { clientId: key }) }, null);
      return { room: (await deps.rooms.findById(tenantId, room.id)) ?? room, message: result.message, created: result.created };
    },
  };
}

export type ActiveMessageService = ReturnType<typeof createActiveMessageService>;
