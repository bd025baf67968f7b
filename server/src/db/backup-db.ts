import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';

/**
 * The database half of a backup (docs/production.md "Backups"). Kept under db/ because it
 * talks to the database files and tools directly; services/backup only orchestrates.
 */

/**
 * Copies a live SQLite file with the driver's online backup API. The whole copy is one
 * `sqlite3_backup_step(-1)`-sized step on a read snapshot: in WAL mode writers go on, and a
 * write by the server between small steps cannot restart the copy again and again (with the
 * default 100-page steps, 200 writes/s would restart it forever).
 */
export async function backupSqliteFile(sourceFile: string, destFile: string): Promise<{ pages: number }> {
  const source = new Database(sourceFile, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    const result = await source.backup(destFile, { progress: () => 0x7fffffff });
    // The copy inherits WAL mode; as a rollback-journal file it is one self-contained file
    // (no -wal/-shm appearing beside it when read), and the server turns WAL on again at open.
    const copy = new Database(destFile);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    return { pages: result.totalPages };
  } finally {
    source.close();
  }
}

/** `PRAGMA integrity_check` of an SQLite file: 'ok' when healthy, else SQLite's findings. */
export function sqliteIntegrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** Names of the migrations applied in an SQLite file (the manifest records them). */
export function sqliteMigrations(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT name FROM knex_migrations ORDER BY id').all() as { name: string }[]).map((r) => r.name);
  } catch {
    return [];
  } finally {
    db.close();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err) => resolve({ code: 127, stderr: err.message }));
    child.once('exit', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** Whether `pg_dump` / `pg_restore` are installed (apt-get install postgresql-client). */
export async function hasPgTools(): Promise<boolean> {
  const [dump, restore] = await Promise.all([run('pg_dump', ['--version']), run('pg_restore', ['--version'])]);
  return dump.code === 0 && restore.code === 0;
}

/**
 * PostgreSQL: `pg_dump --format=custom` (one consistent snapshot, whatever the server writes
 * meanwhile), only the application's schema when DATABASE_SCHEMA is set.
 */
export async function dumpPostgres(databaseUrl: string, schema: string | null, destFile: string): Promise<void> {
  const args = ['--format=custom', '--no-owner', '--no-privileges', `--file=${destFile}`, ...(schema ? [`--schema=${schema}`] : []), databaseUrl];
  const { code, stderr } = await run('pg_dump', args);
  if (code !== 0) throw new Error(`backup: pg_dump failed (${code}): ${stderr.trim()}. Install postgresql-client matching the server version, or check DATABASE_URL.`);
}

/** Restores a `pg_dump` file over the database (objects of the dump are dropped and recreated). */
export async function restorePostgres(databaseUrl: string, dumpFile: string): Promise<void> {
  const args = ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, dumpFile];
  const { code, stderr } = await run('pg_restore', args);
  if (code !== 0) throw new Error(`restore: pg_restore failed (${code}): ${stderr.trim()}`);
}
