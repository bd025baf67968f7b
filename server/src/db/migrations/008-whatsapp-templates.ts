import type { Knex } from 'knex';

/**
 * WhatsApp message templates in their own table (docs/whatsapp.md "Templates"), one row per
 * (tenant, channel, name, language): kept by the template sync and the template status
 * webhooks, read page by page by GET /api/templates. Until now the list sat inside the channel
 * row (`data.templates`); those lists move here and leave the channel row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsapp_templates', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('channel_id', 64).notNullable();
    t.string('name', 512).notNullable();
    t.string('language', 15).notNullable();
    t.string('provider_id', 200).nullable();
    t.string('status', 40).notNullable();
    t.string('category', 40).nullable();
    t.string('origin', 20).notNullable();
    t.string('namespace', 200).nullable();
    t.jsonb('components').notNullable();
    t.string('reason', 400).nullable();
    t.string('synced_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.primary(['tenant_id', 'channel_id', 'name', 'language']);
    t.index(['tenant_id', 'status', 'channel_id', 'name'], 'whatsapp_templates_status_idx');
    t.index(['tenant_id', 'channel_id', 'provider_id'], 'whatsapp_templates_provider_idx');
  });

  // Lists stored on channel rows by the first template sync move to the table.
  const rows = await knex('channels').whereIn('type', ['meta', 'dialog360']).select('tenant_id', 'id', 'type', 'data');
  const now = new Date().toISOString();
  for (const row of rows) {
    const data = typeof row.data === 'string' ? JSON.parse(row.data) : (row.data ?? {});
    if (!Array.isArray(data.templates)) continue;
    const seen = new Set<string>();
    const records = (data.templates as Record<string, unknown>[])
      .filter((tpl) => typeof tpl?.name === 'string' && typeof tpl?.language === 'string')
      .filter((tpl) => {
        const key = `${tpl.name}\u0000${tpl.language}`;
        return seen.has(key) ? false : (seen.add(key), true);
      })
      .map((tpl) => ({
        tenant_id: row.tenant_id, channel_id: row.id, name: String(tpl.name).slice(0, 512), language: String(tpl.language).slice(0, 15),
        provider_id: tpl.id ? String(tpl.id).slice(0, 200) : null, status: String(tpl.status ?? '').slice(0, 40), category: tpl.category ? String(tpl.category).slice(0, 40) : null,
        origin: String(row.type), namespace: tpl.namespace ? String(tpl.namespace).slice(0, 200) : null, components: JSON.stringify(tpl.components ?? []),
        reason: tpl.reason ? String(tpl.reason).slice(0, 400) : null, synced_at: String(data.templatesSyncedAt ?? now), updated_at: now,
      }));
    for (let i = 0; i < records.length; i += 100) await knex('whatsapp_templates').insert(records.slice(i, i + 100));
    const { templates: _moved, ...rest } = data;
    await knex('channels').where({ tenant_id: row.tenant_id, id: row.id }).update({ data: JSON.stringify({ ...rest, ...(data.templatesSyncedAt && { templatesSyncedAt: data.templatesSyncedAt }) }) });
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
