import type { Knex } from 'knex';
import { parseJson, toJson } from '../knex';

/**
 * The few reads and writes contact links need on the contacts table, in the record shape the
 * contacts register uses (the full record in `data`, indexed display_name/phone/email/active
 * columns beside it). The register itself (CRUD, import, export) belongs to the registers
 * domain; this only merges link fields into a record.
 */
export interface ContactRow {
  id: string;
  phone: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

function fromRow(row: Record<string, unknown>): ContactRow {
  return {
    id: String(row.id),
    phone: (row.phone as string | null) ?? null,
    data: parseJson<Record<string, unknown>>(row.data, {}),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export function createContactLinksRepository() {
  const live = (q: Knex | Knex.Transaction, tenantId: string) => q('contacts').where('tenant_id', tenantId).whereNull('deleted_at');
  return {
    async findById(q: Knex | Knex.Transaction, tenantId: string, id: string): Promise<ContactRow | null> {
      if (id.length > 64) return null;
      const row = await live(q, tenantId).andWhere('id', id).first('id', 'phone', 'data', 'created_at', 'updated_at');
      return row ? fromRow(row) : null;
    },
    /** The oldest live contact whose phone is one of `phones` (spellings of one chat number). */
    async findByPhones(q: Knex | Knex.Transaction, tenantId: string, phones: string[]): Promise<ContactRow | null> {
      if (!phones.length) return null;
      const row = await live(q, tenantId).whereIn('phone', phones).orderBy('created_at', 'asc').orderBy('id', 'asc').first('id', 'phone', 'data', 'created_at', 'updated_at');
      return row ? fromRow(row) : null;
    },
    /** Replaces the record's JSON (the caller merged the link fields into it). */
    async saveData(trx: Knex.Transaction, tenantId: string, id: string, data: Record<string, unknown>, at: string): Promise<void> {
      await trx('contacts').where({ tenant_id: tenantId, id }).update({ data: toJson(data), updated_at: at });
    },
  };
}

export type ContactLinksRepository = ReturnType<typeof createContactLinksRepository>;
