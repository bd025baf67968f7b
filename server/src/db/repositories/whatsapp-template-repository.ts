import type { Knex } from 'knex';
import type { ProviderTemplate, TemplateEvent } from '@atendimento/integrations';
import type { WhatsappTemplate } from '@atendimento/schemas/chat/whatsapp';
import { parseJson, toJson, type Db } from '../knex';

/**
 * WhatsApp templates (migration 008, docs/whatsapp.md "Templates"): one row per
 * (tenant, channel, name, language). The sync replaces a channel's rows; status webhooks update
 * one row; GET /api/templates reads a page. Tenant id first in every call.
 */
export interface TemplateQuery {
  channelId?: string | null;
  status?: string | null;
  languages?: string[] | null;
  q?: string | null;
  limit: number;
  offset: number;
}

interface StoredTemplate extends WhatsappTemplate {
  channelId: string;
}

/** Status a template event leaves (Meta: REINSTATED means approved again). */
function statusOfEvent(event: string): string {
  const upper = event.toUpperCase();
  return upper === 'REINSTATED' ? 'APPROVED' : upper;
}

function fromRow(row: Record<string, unknown>): StoredTemplate {
  return {
    channelId: String(row.channel_id),
    id: String(row.provider_id ?? `${row.name}:${row.language}`),
    name: String(row.name),
    elementName: String(row.name),
    language: String(row.language),
    status: String(row.status),
    category: String(row.category ?? ''),
    origin: String(row.origin),
    components: parseJson<unknown[]>(row.components, []),
    ...(row.namespace ? { namespace: String(row.namespace) } : {}),
  };
}

export function createWhatsappTemplateRepository(db: Db) {
  const scoped = (q: Knex | Knex.Transaction, tenantId: string) => q('whatsapp_templates').where('tenant_id', tenantId);

  const repo = {
    /** The sync's list becomes the channel's rows: upserted, and rows the provider no longer lists removed. */
    async replaceChannel(trx: Knex.Transaction, tenantId: string, channelId: string, origin: string, templates: ProviderTemplate[], now: string): Promise<void> {
      const seen = new Set<string>();
      const rows = templates
        .filter((t) => t.name && t.language)
        .filter((t) => {
          const key = `${t.name}\u0000${t.language}`;
          return seen.has(key) ? false : (seen.add(key), true);
        })
        .map((t) => ({
          tenant_id: tenantId, channel_id: channelId, name: t.name.slice(0, 512), language: t.language.slice(0, 15), provider_id: t.id ? String(t.id).slice(0, 200) : null,
          status: String(t.status).toUpperCase().slice(0, 40), category: t.category ? String(t.category).slice(0, 40) : null, origin, namespace: t.namespace ? t.namespace.slice(0, 200) : null,
          components: toJson(t.components ?? []), reason: null, synced_at: now, updated_at: now,
        }));
      for (let i = 0; i < rows.length; i += 100) {
        await trx('whatsapp_templates').insert(rows.slice(i, i + 100))
          .onConflict(['tenant_id', 'channel_id', 'name', 'language'])
          .merge(['provider_id', 'status', 'category', 'origin', 'namespace', 'components', 'reason', 'synced_at', 'updated_at']);
      }
      // Rows of this channel the sync did not see are gone at the provider.
      await scoped(trx, tenantId).andWhere('channel_id', channelId).andWhere('synced_at', '<>', now).delete();
    },

    /** A template status webhook: by provider id, else by name and language. Answers the rows changed. */
    async applyEvent(trx: Knex.Transaction, tenantId: string, channelId: string, event: TemplateEvent, now: string): Promise<number> {
      const q = scoped(trx, tenantId).andWhere('channel_id', channelId);
      if (event.templateId) q.andWhere('provider_id', event.templateId);
      else q.andWhere({ name: event.name, language: event.language });
      return q.update({ status: statusOfEvent(event.event).slice(0, 40), reason: event.reason ? event.reason.slice(0, 400) : null, updated_at: now });
    },

    /**
     * Status webhooks of one delivery, in one transaction; answers the events that matched no
     * stored template (the caller logs them).
     */
    async applyEvents(tenantId: string, channelId: string, events: TemplateEvent[], now: string): Promise<TemplateEvent[]> {
      const unknown: TemplateEvent[] = [];
      await db.transaction(async (trx) => {
        for (const event of events) if (!(await repo.applyEvent(trx, tenantId, channelId, event, now))) unknown.push(event);
      });
      return unknown;
    },

    /** A sync's lists become the channels' rows, all channels or none. */
    async replaceChannels(tenantId: string, lists: { channelId: string; origin: string; templates: ProviderTemplate[] }[], now: string): Promise<void> {
      await db.transaction(async (trx) => {
        for (const list of lists) await repo.replaceChannel(trx, tenantId, list.channelId, list.origin, list.templates, now);
      });
    },

    /** One page, ordered by channel, name and language; `count` is every matching row. */
    async page(tenantId: string, query: TemplateQuery): Promise<{ rows: StoredTemplate[]; count: number }> {
      const filtered = () => {
        const q = scoped(db, tenantId);
        if (query.channelId) q.andWhere('channel_id', query.channelId);
        if (query.status) q.andWhere('status', query.status.toUpperCase());
        if (query.languages?.length) q.whereIn('language', query.languages);
        if (query.q) q.andWhere('name', 'like', `%${query.q.toLowerCase().replace(/[%\\]/g, '')}%`);
        return q;
      };
      const [counted] = await filtered().count({ n: '*' });
      const rows = await filtered().orderBy([{ column: 'channel_id' }, { column: 'name' }, { column: 'language' }]).limit(query.limit).offset(query.offset);
      return { rows: rows.map(fromRow), count: Number(counted?.n ?? 0) };
    },
  };
  return repo;
}

export type WhatsappTemplateRepository = ReturnType<typeof createWhatsappTemplateRepository>;
