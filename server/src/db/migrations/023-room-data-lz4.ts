import type { Knex } from 'knex';
import { dialectOf } from '../knex';

/**
 * PostgreSQL: a room's record (`rooms.data`, ~2 kB of JSON) is compressed on every write, and
 * every customer message rewrites it. The default method (pglz) took ~70 µs a write in a
 * measurement on this box, lz4 ~38 µs, and lz4 also decompresses faster on every room read
 * (docs/bench.md "One round trip fewer twice, and lz4"). Existing values stay pglz until their
 * room is next written. A server built without lz4 keeps pglz: nothing else changes. SQLite does
 * not compress.
 */
export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'pg') return;
  await knex.raw(`do $$ begin
    alter table rooms alter column data set compression lz4;
  exception when feature_not_supported or invalid_parameter_value or syntax_error then
    raise notice 'lz4 is not available on this server: rooms.data stays pglz';
  end $$`);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
