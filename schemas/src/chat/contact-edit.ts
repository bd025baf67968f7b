/**
 * The console's 'Editar Contato' (seed 001 §2): which contact counts as blocked, the fields the
 * pane edits and which of them only admins change. The server enforces the same rules
 * (contacts register hooks and list.json adminFields); the pane only mirrors them.
 */
export function contactIsBlocked(contact: { readonly [key: string]: unknown } | { blockedSending?: unknown; blockedReceiving?: unknown } | null | undefined): boolean {
  const c = contact as { blockedSending?: unknown; blockedReceiving?: unknown } | null | undefined;
  return Boolean(c?.blockedSending || c?.blockedReceiving);
}

/** The switches only admins toggle (contacts list.json adminFields). */
export const CONTACT_ADMIN_FIELDS = ['active', 'blockedSending', 'blockedReceiving'] as const;

/** What the pane sends: the editable fields of the contacts register, nothing else. */
export interface ContactEditInput {
  active?: boolean;
  blockedSending?: boolean;
  blockedReceiving?: boolean;
  displayName?: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  channels?: string[];
}
