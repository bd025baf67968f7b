import { format, messages } from '@atendimento/schemas';
import { clientKey, type ErpClientRow, type ErpSalesmanRow } from '@atendimento/integrations/erp/index';
import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import { AppError, badRequest, notFound, validationError } from '../../errors';
import type { ChangeFeed } from '../changes/change-feed';
import type { ContactLinksRepository, ContactRow } from '../../db/repositories/contact-links-repository';
import { erpFailure, type ErpService } from './erp-service';

type LinkField = 'clients' | 'prospects' | 'salesmen';
const LINK_FIELDS: LinkField[] = ['clients', 'prospects', 'salesmen'];
const MAX_LINKS = 200;

/** A contact as the API returns it (the register's record shape). */
type ContactRecord = Record<string, unknown> & { id: string };

/** What the contact panel shows for a contact's ERP links, with the seed's empty texts. */
interface ContactLinks {
  clients: (ErpClientRow & { id: string })[];
  salesmen: (ErpSalesmanRow & { id: string })[];
  prospects: string[];
  /** 'Sem cliente vinculado' / 'Sem Representante vinculado' when the list is empty, else null. */
  empty: { clients: string | null; salesmen: string | null };
  /** False when the tenant has no ERP: the lists hold only the stored ids. */
  erp: boolean;
}

function ids(value: unknown, field: string, required: boolean): string[] | undefined {
  if (value === undefined || value === null) {
    if (required) throw validationError([{ field, message: format(messages.integrations.linkIdsInvalid, { field }) }]);
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_LINKS || !value.every((v) => (typeof v === 'string' && v.trim() !== '' && v.length <= 64) || (typeof v === 'number' && Number.isFinite(v)))) {
    throw validationError([{ field, message: format(messages.integrations.linkIdsInvalid, { field }) }]);
  }
  return [...new Set(value.map((v) => String(v).trim()))];
}

const stored = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/**
 * The spellings one chat number may have in the contacts table: digits of a chat id
 * ('5511987654321@c.us'), with and without the country code 55, with and without the mobile
 * ninth digit (seed 000 §5: long ids lose their fifth character).
 */
function phoneVariants(raw: string): string[] {
  const digits = raw.split('@')[0]!.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return [];
  const out = new Set<string>([digits]);
  const national = digits.startsWith('55') && digits.length >= 12 ? digits.slice(2) : digits;
  const international = `55${national}`;
  for (const n of [national, international]) out.add(n);
  for (const n of [...out]) {
    if (n.length === 13 && n.startsWith('55')) out.add(n.slice(0, 4) + n.slice(5));
    if (n.length === 12 && n.startsWith('55')) out.add(`${n.slice(0, 4)}9${n.slice(4)}`);
  }
  return [...out];
}

/**
 * Links between contacts and ERP clients, prospects and salesmen (seed 000 §7
 * `PATCH /contacts/{id}/push`, `PATCH /contacts`), and the lookups the contact panel shows.
 * Writes go through the change feed (collection 'contacts'), so open screens update live.
 */
export function createContactLinksService(deps: { db: Db; changes: ChangeFeed; clock: Clock; repo: ContactLinksRepository; erp: ErpService }) {
  const { db, changes, clock, repo, erp } = deps;

  function record(row: ContactRow, data: Record<string, unknown>, at: string): ContactRecord {
    const life = (data.lifeControl && typeof data.lifeControl === 'object' ? data.lifeControl : {}) as Record<string, unknown>;
    return { ...data, id: row.id, lifeControl: { ...life, createdAt: life.createdAt ?? row.createdAt, updatedAt: at, deletedAt: null } };
  }

  /**
   * Looks client keys and salesman codes up in the ERP and returns the clients' names by key;
   * keys in `mustExist` (the ones being linked now) and every salesman code must be found.
   */
  async function verify(tenant: TenantRow, links: Partial<Record<LinkField, string[]>>, mustExist: string[], signal?: AbortSignal): Promise<Map<string, string> | null> {
    const lookups = erp.lookups(tenant);
    if (!lookups) return null;
    const names = new Map<string, string>();
    try {
      const missing: string[] = [];
      if (links.clients?.length) {
        const rows = await lookups.clientsByKeys(links.clients, signal);
        for (const row of rows) names.set(clientKey(row), String(row.A1_NREDUZ || row.A1_NOME).trim());
        missing.push(...mustExist.filter((k) => !names.has(k)));
      }
      if (links.salesmen?.length) {
        const rows = await lookups.salesmenByCodes(links.salesmen, signal);
        const found = new Set(rows.map((r) => String(r.A3_COD).trim()));
        missing.push(...links.salesmen.filter((c) => !found.has(c)));
      }
      if (missing.length) throw badRequest('not_in_erp', format(messages.integrations.clientsNotInErp, { ids: missing.join(', ') }));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw erpFailure(error, true);
    }
    return names;
  }

  async function write(tenant: TenantRow, row: ContactRow, change: (data: Record<string, unknown>) => Record<string, unknown>): Promise<ContactRecord> {
    const at = clock.now().toISOString();
    return changes.transaction(tenant.id, async (trx, recordChange) => {
      // Re-read inside the transaction: another write may have landed since the check.
      const current = (await repo.findById(trx, tenant.id, row.id)) ?? row;
      const data = change({ ...current.data });
      const life = (data.lifeControl && typeof data.lifeControl === 'object' ? data.lifeControl : {}) as Record<string, unknown>;
      data.lifeControl = { ...life, createdAt: life.createdAt ?? current.createdAt, updatedAt: at, deletedAt: null };
      await repo.saveData(trx, tenant.id, current.id, data, at);
      recordChange({ collection: 'contacts', id: current.id, op: 'upsert' });
      return record(current, data, at);
    });
  }

  /** Names of the linked clients, in link order, for the record's clientsName (null: no ERP). */
  function clientsName(keys: string[], names: Map<string, string> | null): string[] | undefined {
    return names ? keys.map((k) => names.get(k) ?? k) : undefined;
  }

  return {
    /** Adds ids to a contact's clients, prospects and/or salesmen (`PATCH /api/contacts/:id/push`). */
    async push(tenant: TenantRow, contactId: string, body: unknown, signal?: AbortSignal): Promise<ContactRecord> {
      const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
      const links: Partial<Record<LinkField, string[]>> = {};
      for (const field of LINK_FIELDS) {
        const list = ids(input[field], field, false);
        if (list) links[field] = list;
      }
      if (!Object.keys(links).length) throw badRequest('links_required', messages.integrations.linksRequired);
      const row = await repo.findById(db, tenant.id, contactId);
      if (!row) throw notFound();
      const allClients = [...new Set([...stored(row.data.clients), ...(links.clients ?? [])])];
      if (allClients.length > MAX_LINKS) throw validationError([{ field: 'clients', message: format(messages.integrations.linkIdsInvalid, { field: 'clients' }) }]);
      const names = await verify(tenant, { clients: links.clients ? allClients : undefined, salesmen: links.salesmen }, links.clients ?? [], signal);
      return write(tenant, row, (data) => {
        for (const field of LINK_FIELDS) {
          if (links[field]) data[field] = [...new Set([...stored(data[field]), ...links[field]!])];
        }
        if (links.clients) {
          const keys = stored(data.clients);
          const named = clientsName(keys, names);
          if (named) data.clientsName = named;
          // A client linked again is no longer "removed" (seed 000 §4 client unlinking).
          if (Array.isArray(data.removedClients)) data.removedClients = stored(data.removedClients).filter((k) => !keys.includes(k));
        }
        return data;
      });
    },

    /**
     * Sets a contact's clients (`PATCH /api/contacts`): the contact is `id`, or the one whose
     * phone is the chat number `phone`. With ERP branches configured, clients taken away are
     * remembered in `removedClients` (seed 000 §4).
     */
    async setClients(tenant: TenantRow, body: unknown, signal?: AbortSignal): Promise<ContactRecord> {
      const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
      const clients = ids(input.clients, 'clients', true)!;
      const id = typeof input.id === 'string' && input.id.trim() ? input.id.trim() : null;
      const phone = typeof input.phone === 'string' || typeof input.phone === 'number' ? String(input.phone) : null;
      if (!id && !phone) throw validationError([{ field: 'id', message: messages.validation.requiredField }]);
      let row = id ? await repo.findById(db, tenant.id, id) : null;
      if (!row && phone) {
        const variants = phoneVariants(phone);
        if (!variants.length) throw validationError([{ field: 'phone', message: messages.validation.phoneInvalid }]);
        row = await repo.findByPhones(db, tenant.id, variants);
        if (!row && !id) throw new AppError(404, 'not_found', format(messages.integrations.contactNotFoundByPhone, { phone: variants[0]! }));
      }
      if (!row) throw notFound();
      const names = await verify(tenant, { clients }, clients, signal);
      const trackRemoved = (tenant.appConfig.protheus?.branches?.length ?? 0) > 0;
      return write(tenant, row, (data) => {
        const before = stored(data.clients);
        data.clients = clients;
        const named = clientsName(clients, names);
        if (named) data.clientsName = named;
        if (trackRemoved) {
          const removed = before.filter((k) => !clients.includes(k));
          data.removedClients = [...new Set([...stored(data.removedClients), ...removed])].filter((k) => !clients.includes(k));
        }
        return data;
      });
    },

    /** The contact's linked clients and salesmen as the ERP has them ('Erro na Busca!' when it fails). */
    async links(tenant: TenantRow, contactId: string, signal?: AbortSignal): Promise<ContactLinks> {
      const row = await repo.findById(db, tenant.id, contactId);
      if (!row) throw notFound();
      const clientKeys = stored(row.data.clients).slice(0, MAX_LINKS);
      const salesmanCodes = stored(row.data.salesmen);
      if (typeof row.data.vendId === 'string' && row.data.vendId) salesmanCodes.push(row.data.vendId);
      const prospects = stored(row.data.prospects);
      const lookups = erp.lookups(tenant);
      let clients: ContactLinks['clients'] = [];
      let salesmen: ContactLinks['salesmen'] = [];
      if (!lookups) {
        clients = clientKeys.map((id) => ({ id }) as ContactLinks['clients'][number]);
        salesmen = [...new Set(salesmanCodes)].map((id) => ({ id }) as ContactLinks['salesmen'][number]);
      } else {
        try {
          const rows = await lookups.clientsByKeys(clientKeys, signal);
          const byKey = new Map(rows.map((r) => [clientKey(r), r]));
          clients = clientKeys.filter((k) => byKey.has(k)).map((k) => ({ ...byKey.get(k)!, id: k }));
          // The contact's own salesmen first, then the salesmen of its clients (A1_VEND).
          const codes = [...new Set([...salesmanCodes, ...rows.map((r) => String(r.A1_VEND ?? '').trim()).filter(Boolean)])];
          salesmen = (await lookups.salesmenByCodes(codes, signal)).map((r) => ({ ...r, id: String(r.A3_COD).trim() }));
        } catch (error) {
          throw erpFailure(error, true);
        }
      }
      return {
        clients,
        salesmen,
        prospects,
        empty: { clients: clients.length ? null : messages.contact.noClient, salesmen: salesmen.length ? null : messages.contact.noSalesman },
        erp: !!lookups,
      };
    },

    /** ERP clients with this CPF/CNPJ and the seed's text for the result. */
    async clientsByCgc(tenant: TenantRow, cgc: unknown, signal?: AbortSignal): Promise<{ clients: (ErpClientRow & { id: string })[]; text: string }> {
      const digits = typeof cgc === 'string' || typeof cgc === 'number' ? String(cgc).replace(/[.\-/\s]/g, '') : '';
      if (!/^(\d{11}|\d{14})$/.test(digits)) throw validationError([{ field: 'cgc', message: messages.integrations.cgcInvalid }]);
      const lookups = erp.lookups(tenant);
      if (!lookups) throw new AppError(409, 'erp_not_configured', messages.integrations.erpNotConfigured);
      let rows: ErpClientRow[];
      try {
        rows = await lookups.clientsByCgc(digits, signal);
      } catch (error) {
        throw erpFailure(error, true);
      }
      return { clients: rows.map((r) => ({ ...r, id: clientKey(r) })), text: rows.length ? messages.contact.clientCgc : messages.contact.noClientCgc };
    },
  };
}

export type ContactLinksService = ReturnType<typeof createContactLinksService>;
