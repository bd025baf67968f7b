import { contactIsBlocked, messages } from '@atendimento/schemas';
import { forbidden, validationError } from '../../../errors';
import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import type { RegisterHooks } from '../register-hooks';

/**
 * Contacts (seed 000 §3-§4): the phone is locked while the contact has an active room (the
 * console's rooms table decides), and the register lists people, not groups. Only admins
 * toggle Ativo and the blocks: list.json's adminFields, enforced by the register service; a
 * blocked contact is edited by admins only (seed 001 'Editar Contato' is disabled for the rest).
 */
export function contactsHooks(lookups: RegisterLookups): RegisterHooks {
  return {
    async beforeWrite(ctx, next, previous) {
      if (previous && !ctx.admin && contactIsBlocked(previous)) throw forbidden('contact_blocked', messages.registers.blockedContactEdit);
      if (previous && (previous.phone ?? null) !== (next.phone ?? null)) {
        const locked = await lookups.contactsWithActiveRoom(ctx.tenant.id, [previous.id], ctx.trx);
        if (locked.size) throw validationError([{ field: 'phone', message: messages.registers.phoneLocked }]);
      }
      if (next.group === null || next.group === undefined) next.group = false;
      // The chat id of a WhatsApp contact is its number (seed 001 §3); keep one when it has none.
      if (!next.chatId && typeof next.phone === 'string') next.chatId = next.phone;
    },
    async afterWrite(ctx, next, previous) {
      if (!previous) return;
      // An open chat shows the contact through its room's copy (the agent may not read the
      // contacts register): an edit that left it stale was undone on the next reload.
      const changed = await lookups.refreshRoomAuthors(ctx.trx, ctx.tenant.id, String(next.id), {
        displayName: String(next.displayName ?? ''),
        email: (next.email as string | null | undefined) ?? null,
        photoUrl: (next.photoUrl as string | null | undefined) ?? null,
        phone: (next.phone as string | null | undefined) ?? null,
        blockedSending: Boolean(next.blockedSending),
      });
      // A name or e-mail changes no report figure.
      for (const id of changed) ctx.record({ collection: 'rooms', id, op: 'upsert', reportNeutral: true });
    },
    async decorate(tenantId, records) {
      const locked = await lookups.contactsWithActiveRoom(tenantId, records.map((r) => r.id));
      for (const record of records) record.phoneLocked = locked.has(record.id);
    },
  };
}
