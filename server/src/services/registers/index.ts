import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { dialectOf, type Db } from '../../db/knex';
import { createRegisterRepository } from '../../db/repositories/register-repository';
import { createRegisterLookups } from '../../db/repositories/register-lookups';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { BlobStore } from '../files/blob-store';
import type { Mailer } from '../mail/mailer';
import { loadRegisterDefinitions } from './definition-loader';
import { createRegisterValidator } from './register-validator';
import { createRegisterService } from './register-service';
import { registerHooks, type ContingencyScheduler } from './hooks';
import { registerTable } from './register-tables';
import { createExportService } from './export-service';
import { createImportService } from './import-service';
import { createLookupService } from './lookup-service';
import { registerLiveCollections } from './register-live-collections';

interface RegistersDeps {
  db: Db;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  blobs: BlobStore;
  mailer: Mailer;
  sendSignInLink(tenant: TenantRow, userId: string): Promise<void>;
  /** Auth's notice to an account's previous address when its e-mail or password changes. */
  sendAccountNotice?(tenant: TenantRow, to: { email: string; displayName: string }, change: { email?: string; password?: boolean }): Promise<void>;
  /** Auth's end of every session of a user (disabled, deleted, credentials changed): sockets close at once. */
  revokeUser?(tenant: TenantRow, userId: string, reason: 'disabled' | 'deleted' | 'credentials_changed'): Promise<void>;
  /** Routing's clock: a contingency's end is scheduled in the transaction that saves it (docs/routing.md). */
  scheduleContingencyEnd?: ContingencyScheduler;
  /** Directories of register folders; default schemas/registers (config REGISTERS_DIRS adds more). */
  definitions?: ReadonlyMap<string, RegisterDefinition>;
}

/**
 * The registers domain (docs/registers.md), wired once with its dependencies: definitions
 * loaded from their folders, the generic service, file import/export, lookups and live
 * collections for the hub. Its routes: web/routes/registers.
 */
export function createRegisters(deps: RegistersDeps) {
  const definitions = deps.definitions ?? loadRegisterDefinitions();
  const repo = createRegisterRepository(deps.db);
  const lookups = createRegisterLookups(deps.db);
  const validator = createRegisterValidator(definitions.values());
  const queues = definitions.get('queues');
  const hooks = registerHooks({
    lookups,
    repo,
    blobs: deps.blobs,
    queuesTable: queues ? registerTable(queues) : { table: 'queues', columns: {}, fields: {} },
    sendSignInLink: deps.sendSignInLink,
    sendAccountNotice: deps.sendAccountNotice,
    revokeUser: deps.revokeUser,
    scheduleContingencyEnd: deps.scheduleContingencyEnd,
  });
  const registers = createRegisterService({ definitions, repo, validator, changes: deps.changes, clock: deps.clock, logger: deps.logger, hooks });
  const exports = createExportService({ registers, lookups, mailer: deps.mailer, clock: deps.clock, logger: deps.logger });
  // PostgreSQL keeps a background import in one transaction; SQLite's single connection cannot (import-service.ts).
  const imports = createImportService({ registers, clock: deps.clock, logger: deps.logger, atomicBackground: dialectOf(deps.db) === 'pg' });
  const lookup = createLookupService({ registers, repo });
  return {
    registers,
    exports,
    imports,
    lookup,
    repo,
    blobs: deps.blobs,
    sendSignInLink: deps.sendSignInLink,
    /** LiveCollections to register with the realtime hub. */
    liveCollections: registerLiveCollections({ registers, repo }),
  };
}

export type Registers = ReturnType<typeof createRegisters>;
