import type { Knex } from 'knex';
import { dialectOf } from '../knex';

/**
 * PostgreSQL storage (SQLite: nothing to do, its integers are 64-bit and it does not compress):
 *
 * - `counters.value` becomes bigint. It holds each tenant's change-log sequence (`changeSeq`),
 *   which every committed write advances by the records it touched: an int4 would overflow
 *   after ~2.1 billion changes (a month at the ingest bench's rate). `change_log.seq` is bigint
 *   already; every reader turns the value into a number.
 * - `rooms.data` is compressed with lz4. A room's record (~2 kB of JSON) is compressed on every
 *   write, and every customer message rewrites it: ~70 µs a write with the default pglz on this
 *   box, ~38 µs with lz4, which also decompresses faster on every room read (docs/bench.md "One
 *   round trip fewer twice, and lz4"). Existing values stay pglz until their room is next
 *   written; a server built without lz4 keeps pglz.
 */
export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'pg') return;
  await knex.raw('alter table counters alter column value type bigint');
  await knex.raw(`do $$ begin
    alter table rooms alter column data set compression lz4;
  exception when feature_not_supported or invalid_parameter_value or syntax_error then
    raise notice 'lz4 is not available on this server: rooms.data stays pglz';
  end $$`);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
