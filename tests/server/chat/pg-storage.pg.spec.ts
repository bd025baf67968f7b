import { describe, expect, it } from 'vitest';
import { parseJson } from '@atendimento/server/db/knex';
import { useWhatsappServer } from '../whatsapp/whatsapp-helpers';

/**
 * PostgreSQL storage (migration 023): a tenant's change sequence runs past int4, and a room's
 * record is compressed with lz4 where the server has it (every customer message rewrites the
 * ~2 kB record: docs/bench.md) and reads back whole.
 */
const suite = useWhatsappServer();

async function lz4Available(): Promise<boolean> {
  try {
    await suite.t.server.db.transaction(async (trx) => {
      await trx.raw('create temporary table lz4_probe (x text compression lz4) on commit drop');
    });
    return true;
  } catch {
    return false;
  }
}

describe('rooms.data compression', () => {
  it('a room written after the migration is stored with lz4 (pglz where the server lacks it) and reads back whole', async () => {
    const db = suite.t.server.db;
    const method = (await lz4Available()) ? 'lz4' : 'pglz';
    const column = await db.raw("select attcompression from pg_attribute where attrelid = 'rooms'::regclass and attname = 'data'");
    expect(column.rows[0].attcompression).toBe(method === 'lz4' ? 'l' : '');

    // A long message (the room keeps it as its last) makes the record long enough to compress (rows over ~2 kB).
    const text = `Olá, ${'preciso de ajuda com o pedido. '.repeat(80)}Obrigado.`;
    const [result] = await suite.t.server.services.chat.ingest.ingestInbound('acme', suite.channel, [
      { externalId: 'wamid.lz4.1', timestamp: new Date().toISOString(), contact: { phone: '5511977770001', userId: null, displayName: 'Cliente Comprimido' }, content: { type: 'text', text } },
    ]);
    const row = (await db.raw('select data, pg_column_compression(data) as method from rooms where tenant_id = ? and id = ?', ['acme', result!.roomId])).rows[0];
    expect(row.method).toBe(method);
    const room = parseJson<{ lastMessage?: { text?: string }; author?: { displayName?: string } }>(row.data, {});
    // The room keeps its last message's preview (the start of its text).
    expect(room.lastMessage?.text?.length).toBeGreaterThan(100);
    expect(text.startsWith(room.lastMessage!.text!)).toBe(true);
    expect(room.author?.displayName).toBe('Cliente Comprimido');
  });

  it("a tenant's change sequence goes on past 2,147,483,647 (int4): a message near the edge is stored and numbered after it", async () => {
    const db = suite.t.server.db;
    const edge = 2 ** 31 - 2;
    await db('counters').insert({ tenant_id: 'acme', name: 'changeSeq', value: edge }).onConflict(['tenant_id', 'name']).merge(['value']);
    const [result] = await suite.t.server.services.chat.ingest.ingestInbound('acme', suite.channel, [
      { externalId: 'wamid.seq.edge', timestamp: new Date().toISOString(), contact: { phone: '5511977770002', userId: null, displayName: 'Cliente Limite' }, content: { type: 'text', text: 'Oi' } },
    ]);
    expect(result!.created).toBe(true);
    const seqs = (await db('change_log').where('tenant_id', 'acme').andWhere('seq', '>', edge).orderBy('seq').pluck('seq')).map(Number);
    expect(seqs.length).toBeGreaterThan(1);
    expect(seqs[0]).toBe(edge + 1);
    expect(seqs.at(-1)!).toBeGreaterThan(2 ** 31 - 1);
    expect(seqs).toEqual(seqs.map((_, i) => edge + 1 + i));
  });
});
