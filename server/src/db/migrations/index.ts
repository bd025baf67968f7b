import type { Knex } from 'knex';
import * as m001 from './001-foundation';
import * as m002 from './002-change-log';
import * as m003 from './003-realtime';
import * as m004 from './004-registers';
import * as m005 from './005-chat';
import * as m006 from './006-integration-records';
import * as m007 from './007-api-tokens';
import * as m008 from './008-whatsapp-templates';
import * as m009 from './009-routing';
import * as m012 from './012-admin';
import * as m013 from './013-mail';
import * as m014 from './014-lgpd';
import * as m015 from './015-room-transfers';
import * as m016 from './016-campaigns';
import * as m017 from './017-reports';
import * as m018 from './018-export-index';
import * as m019 from './019-export-jobs';
import * as m020 from './020-flow-runs';
import * as m021 from './021-redundant-indexes';
import * as m022 from './022-idempotency-partial-index';
import * as m023 from './023-pg-storage';

/**
 * Migrations are imported statically (no directory scan), so they work the same under tsx,
 * vitest and a bundle. Forward-only: add a new file and append it here.
 */
const migrations: Record<string, Knex.Migration> = {
  '001-foundation': m001,
  '002-change-log': m002,
  '003-realtime': m003,
  '004-registers': m004,
  '005-chat': m005,
  '006-integration-records': m006,
  '007-api-tokens': m007,
  '008-whatsapp-templates': m008,
  '009-routing': m009,
  '012-admin': m012,
  '013-mail': m013,
  '014-lgpd': m014,
  '015-room-transfers': m015,
  '016-campaigns': m016,
  '017-reports': m017,
  '018-export-index': m018,
  '019-export-jobs': m019,
  '020-flow-runs': m020,
  '021-redundant-indexes': m021,
  '022-idempotency-partial-index': m022,
  '023-pg-storage': m023,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};
