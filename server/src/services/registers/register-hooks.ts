import type { Transaction } from '../../db/knex';
import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';
import type { RecordData } from '../../db/repositories/register-repository';
import type { RecordChange } from '../changes/change-feed';

/** Who writes, to which register, when. */
export interface HookContext {
  tenant: TenantRow;
  user: UserRecord;
  admin: boolean;
  definition: RegisterDefinition;
  now: Date;
}

/** Inside the write's transaction: extra writes join it and their changes go live with it. */
export interface WriteContext extends HookContext {
  trx: Transaction;
  record: RecordChange;
}

/**
 * Rules one register needs beyond its definition (docs/registers.md "Hooks"). A register
 * without hooks works from its folder alone; hooks exist where the seed asks for something
 * data cannot say (contacts' phone lock, agents' passwords, departments' membership rows,
 * QR images...).
 *
 * To add hooks for a register: write hooks/<name>-hooks.ts exporting a RegisterHooks factory
 * and list it in hooks/index.ts.
 */
export interface RegisterHooks {
  /**
   * After validation, before the row is written: checks that need the database (throw an
   * AppError to refuse) and computed fields. May return extra columns for the row.
   */
  beforeWrite?(ctx: WriteContext, next: RecordData, previous: RecordData | null, inputs: Record<string, unknown>): Promise<Record<string, unknown> | void>;
  /**
   * The bulk path's check (imports): once per slice of new rows, before they are inserted
   * together. A register whose only write hook is beforeWrite and that has this one keeps the
   * bulk insert; without it, a beforeWrite makes the bulk path write row by row.
   */
  beforeInsertMany?(ctx: WriteContext, rows: RecordData[]): Promise<void>;
  /** After the row is written, in the same transaction (membership rows, linked records). */
  afterWrite?(ctx: WriteContext, next: RecordData, previous: RecordData | null): Promise<void>;
  afterDelete?(ctx: WriteContext, deleted: RecordData[]): Promise<void>;
  /** After commit (e-mails): failures are logged, the write stands. */
  afterCommit?(ctx: HookContext, next: RecordData, previous: RecordData | null, inputs: Record<string, unknown>): Promise<void>;
  /** Adds per-record facts to a page in a constant number of statements (contacts: phoneLocked). */
  decorate?(tenantId: string, records: RecordData[]): Promise<void>;
  /** The API shape of a stored record (field renames). */
  toApi?(record: RecordData): RecordData;
}
