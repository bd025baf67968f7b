import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, parseJson } from '@atendimento/server/db/knex';

/** Migration 008 moves the template lists the first version kept on channel rows into whatsapp_templates. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'wa-templates-migration-'));
const db = createDb({ databaseUrl: undefined, databaseSchema: null, sqliteFile: path.join(dir, 'db.sqlite') } as never);
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 008-whatsapp-templates', () => {
  it('moves channel data.templates into rows (duplicates once) and strips them from the channel', async () => {
    for (;;) {
      const [, pending] = (await db.migrate.list()) as [unknown[], unknown[]];
      const next = pending[0] as string | { file?: string; name?: string } | undefined;
      const name = typeof next === 'string' ? next : next?.file ?? next?.name;
      if (!name || name === '008-whatsapp-templates') break;
      await db.migrate.up();
    }
    const iso = '2026-11-01T10:00:00.000Z';
    await db('tenants').insert({ id: 'acme', name: 'Acme', active: true, app_config: '{}', created_at: iso, updated_at: iso });
    const templates = [
      { id: '111', name: 'boas_vindas', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Olá {{1}}' }] },
      { id: '111', name: 'boas_vindas', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [] },
      { id: '222', name: 'aviso', language: 'en_US', status: 'REJECTED', category: 'MARKETING', components: [], reason: 'INVALID_FORMAT' },
    ];
    const channel = (id: string, type: string, data: Record<string, unknown>) => ({ id, tenant_id: 'acme', type, display_name: id, active: true, created_at: iso, updated_at: iso, deleted_at: null, data: JSON.stringify({ id, type, ...data }) });
    await db('channels').insert([
      channel('wa-meta', 'meta', { templates, templatesSyncedAt: iso, provider: { baseUrl: 'https://graph.facebook.com' } }),
      channel('wa-chat', 'webchat', { templates: [{ name: 'x', language: 'pt_BR' }] }),
    ]);
    await db.migrate.up();

    const rows = await db('whatsapp_templates').orderBy('name').select();
    expect(rows.map((r) => [r.tenant_id, r.channel_id, r.name, r.language, r.provider_id, r.status, r.origin, r.synced_at, r.reason])).toEqual([
      ['acme', 'wa-meta', 'aviso', 'en_US', '222', 'REJECTED', 'meta', iso, 'INVALID_FORMAT'],
      ['acme', 'wa-meta', 'boas_vindas', 'pt_BR', '111', 'APPROVED', 'meta', iso, null],
    ]);
    expect(parseJson(rows[1]!.components, [])).toEqual([{ type: 'BODY', text: 'Olá {{1}}' }]);
    const meta = parseJson<Record<string, unknown>>((await db('channels').where({ id: 'wa-meta' }).first()).data, {});
    expect(meta.templates).toBeUndefined();
    expect(meta.provider).toEqual({ baseUrl: 'https://graph.facebook.com' });
    // Other channel types are not template channels: left as they were.
    expect(parseJson<Record<string, unknown>>((await db('channels').where({ id: 'wa-chat' }).first()).data, {}).templates).toHaveLength(1);
  });
});
