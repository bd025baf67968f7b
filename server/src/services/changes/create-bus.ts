import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { dialectOf, type Db } from '../../db/knex';
import { createMemoryBus, type ChangeBus } from './change-bus';
import { createPgBus } from './pg-bus';
import { createRedisBus } from './redis-bus';

type BusConfig = Pick<Config, 'bus' | 'redisUrl' | 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>;

/**
 * A short name for "this database (and schema)": processes serving the same data share it,
 * anything else (another schema in a test run, another deployment on one Redis) does not.
 */
export function busNamespace(config: BusConfig): string {
  let where = config.sqliteFile;
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    where = `${url.hostname}:${url.port}${url.pathname}#${config.databaseSchema ?? 'public'}`;
  }
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

/** How long to wait for a network bus at start-up before failing with a clear message. */
const READY_TIMEOUT_MS = 10_000;

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`createBus: ${what} did not answer in ${READY_TIMEOUT_MS / 1000} s. Check it is running or use BUS=memory.`)), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The change bus config.bus names (docs/realtime.md): `memory` for one process, `pg`
 * (LISTEN/NOTIFY, needs DATABASE_URL) or `redis` (REDIS_URL) when several processes serve one
 * database. Resolves once the bus is listening, so a started server never misses a note.
 */
export async function createBus(config: BusConfig, db: Db, logger: Logger): Promise<ChangeBus> {
  const namespace = busNamespace(config);
  switch (config.bus) {
    case 'memory':
      return createMemoryBus();
    case 'pg': {
      if (!config.databaseUrl || dialectOf(db) !== 'pg') {
        throw new Error('createBus: BUS=pg needs DATABASE_URL=postgres://... Use BUS=memory for one process on SQLite, or BUS=redis.');
      }
      const bus = createPgBus({ connectionString: config.databaseUrl, channel: `atendimento_changes_${namespace}`, db, logger });
      try {
        await withTimeout(bus.ready, 'PostgreSQL LISTEN');
      } catch (err) {
        await bus.close();
        throw err;
      }
      return bus;
    }
    case 'redis': {
      const bus = createRedisBus({ url: config.redisUrl, channel: `atendimento:changes:${namespace}`, logger });
      try {
        await withTimeout(bus.ready, `Redis at ${config.redisUrl}`);
      } catch (err) {
        await bus.close();
        throw err;
      }
      return bus;
    }
    default:
      throw new Error(`createBus: unknown bus "${String(config.bus)}". Use memory, pg or redis.`);
  }
}
