import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config';
import type { Clock } from '../../clock';
import { backupSqliteFile, dumpPostgres, restorePostgres, sqliteIntegrity, sqliteMigrations } from '../../db/backup-db';

/**
 * Backups and restore (docs/production.md "Backups"): one dated folder per backup with the
 * database (SQLite online copy or pg_dump), the blob store, the generated key files and a
 * manifest.json listing every file with its size and SHA-256.
 */

export const MANIFEST = 'manifest.json';
/**
 * Key files generated into DATA_DIR when the environment sets none (JWT_SECRET, SECRETS_KEY):
 * without secrets-key the restored channel tokens and passwords could not be decrypted.
 */
const KEY_FILES = ['jwt-secret', 'secrets-key'];
const PREFIX = 'backup-';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  createdAt: string;
  dialect: 'sqlite' | 'pg';
  /** The database file inside the folder: database.sqlite or database.pgdump. */
  database: string;
  /** PostgreSQL: the schema the dump holds (pg_restore writes it back under that name). */
  schema?: string;
  migrations: string[];
  files: ManifestFile[];
}

export type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseSchema' | 'sqliteFile' | 'backupDir'>;

/** Folder name for a backup taken at `at`: sorts by time, safe on every filesystem. */
export function backupName(at: Date): string {
  return PREFIX + at.toISOString().replace(/[-:]/g, '').replace(/\.(\d+)Z$/, '$1Z');
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function walk(dir: string, base = dir): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full, base)));
    else if (entry.isFile()) out.push(path.relative(base, full));
  }
  return out.sort();
}

/**
 * Takes a backup while the server keeps running. The database is copied first: blobs are
 * written before the message that points at them commits, so every file a backed-up message
 * names is already on disk when the blob store is copied afterwards. Written into a
 * `.partial` folder and renamed at the end: a half-written backup never looks complete.
 */
export async function createBackup(config: BackupConfig, clock: Clock): Promise<{ dir: string; manifest: Manifest }> {
  const createdAt = clock.now();
  const finalDir = path.join(config.backupDir, backupName(createdAt));
  const work = `${finalDir}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const dialect = config.databaseUrl ? 'pg' : 'sqlite';
    let database: string;
    let migrations: string[] = [];
    if (dialect === 'pg') {
      database = 'database.pgdump';
      await dumpPostgres(config.databaseUrl!, config.databaseSchema, path.join(work, database));
    } else {
      database = 'database.sqlite';
      if (!existsSync(config.sqliteFile)) throw new Error(`backup: no database at ${config.sqliteFile}. Check DATA_DIR / SQLITE_FILE.`);
      await backupSqliteFile(config.sqliteFile, path.join(work, database));
      migrations = sqliteMigrations(path.join(work, database));
    }
    const blobsDir = path.join(config.dataDir, 'blobs');
    if (existsSync(blobsDir)) await cp(blobsDir, path.join(work, 'blobs'), { recursive: true });
    for (const name of KEY_FILES) {
      const file = path.join(config.dataDir, name);
      if (existsSync(file)) await copyFile(file, path.join(work, name));
    }

    const files: ManifestFile[] = [];
    for (const rel of await walk(work)) {
      const full = path.join(work, rel);
      files.push({ path: rel.split(path.sep).join('/'), size: (await stat(full)).size, sha256: await sha256(full) });
    }
    const manifest: Manifest = { format: 1, createdAt: createdAt.toISOString(), dialect, database, ...(dialect === 'pg' && { schema: config.databaseSchema ?? 'public' }), migrations, files };
    await writeFile(path.join(work, MANIFEST), JSON.stringify(manifest, null, 2));
    await rename(work, finalDir);
    return { dir: finalDir, manifest };
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
}

/** Complete backups in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && !name.endsWith('.partial') && existsSync(path.join(dir, name, MANIFEST)))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Deletes the oldest complete backups beyond `keep`; answers the deleted folders. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const all = listBackups(dir);
  const doomed = all.slice(0, Math.max(0, all.length - Math.max(1, keep)));
  for (const old of doomed) await rm(old, { recursive: true, force: true });
  return doomed;
}

/** Checks every file of a backup against its manifest; answers the manifest or throws naming the bad file. */
export async function verifyBackup(dir: string): Promise<Manifest> {
  const manifestFile = path.join(dir, MANIFEST);
  if (!existsSync(manifestFile)) throw new Error(`restore: ${dir} has no ${MANIFEST}. Pass a folder made by npm run backup.`);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== 1 || !Array.isArray(manifest.files)) throw new Error(`restore: ${manifestFile} is not a backup manifest this version reads.`);
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const file of manifest.files) {
    const full = path.join(dir, ...file.path.split('/'));
    if (!full.startsWith(path.resolve(dir) + path.sep)) throw new Error(`restore: manifest path "${file.path}" leaves the backup folder.`);
    if (!existsSync(full)) throw new Error(`restore: ${file.path} is missing from the backup; it is damaged, use another one.`);
    const actual = await sha256(full);
    if (actual !== file.sha256) throw new Error(`restore: checksum mismatch for ${file.path} (expected ${file.sha256}, got ${actual}); the backup is damaged, use another one.`);
  }
  if (!listed.has(manifest.database)) throw new Error(`restore: the manifest does not list its database file ${manifest.database}.`);
  return manifest;
}

// ---- "is a server using this data dir?" -------------------------------------------------

interface RunFile {
  pid: number;
  host: string;
  startedAt: string;
}

const runDir = (dataDir: string) => path.join(dataDir, 'run');

/** Marks the data dir as in use by this process (restore refuses while such a mark is live). */
export async function markRunning(dataDir: string, now: Date): Promise<() => Promise<void>> {
  await mkdir(runDir(dataDir), { recursive: true });
  const file = path.join(runDir(dataDir), `server-${process.pid}.json`);
  const content: RunFile = { pid: process.pid, host: os.hostname(), startedAt: now.toISOString() };
  await writeFile(file, JSON.stringify(content));
  return () => rm(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Servers that hold `dataDir` now (marks of dead processes on this host are ignored). */
export function runningServers(dataDir: string): RunFile[] {
  const dir = runDir(dataDir);
  if (!existsSync(dir)) return [];
  const out: RunFile[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const mark = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as RunFile;
      // Another host (a container sharing the volume): its pid means nothing here, so it counts.
      if (mark.host !== os.hostname() || alive(mark.pid)) out.push(mark);
    } catch {
      // A half-written mark: its server is starting; treat as running.
      out.push({ pid: 0, host: 'unknown', startedAt: '' });
    }
  }
  return out;
}

/**
 * Restores a backup into config's data dir and database. Refuses while a server holds the
 * data dir, checks every checksum before touching anything, replaces the database and the blob
 * store whole, and re-checks the restored SQLite file.
 */
export async function restoreBackup(backupDir: string, config: BackupConfig): Promise<Manifest> {
  const running = runningServers(config.dataDir);
  if (running.length > 0) {
    const who = running.map((r) => `pid ${r.pid} on ${r.host}`).join(', ');
    throw new Error(`restore: a server is using ${config.dataDir} (${who}). Stop every server process first (if none runs, delete ${runDir(config.dataDir)}).`);
  }
  const manifest = await verifyBackup(backupDir);
  const dialect = config.databaseUrl ? 'pg' : 'sqlite';
  if (manifest.dialect !== dialect) {
    throw new Error(`restore: this backup is of a ${manifest.dialect} database but the configuration points at ${dialect}. Set or unset DATABASE_URL to match.`);
  }
  // pg_restore recreates the dump's own schema (--clean drops it first): restoring a backup of
  // schema A while DATABASE_SCHEMA says B would overwrite A, possibly the live one. Refused.
  if (dialect === 'pg' && manifest.schema && manifest.schema !== (config.databaseSchema ?? 'public')) {
    throw new Error(`restore: this backup holds the PostgreSQL schema "${manifest.schema}", which pg_restore recreates under that name, but DATABASE_SCHEMA is "${config.databaseSchema ?? 'public'}". Restore into a fresh database (another DATABASE_URL) with DATABASE_SCHEMA=${manifest.schema}.`);
  }
  await mkdir(config.dataDir, { recursive: true });
  if (dialect === 'pg') {
    await restorePostgres(config.databaseUrl!, path.join(backupDir, manifest.database));
  } else {
    const target = config.sqliteFile;
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.restoring`;
    await copyFile(path.join(backupDir, manifest.database), temp);
    const check = sqliteIntegrity(temp);
    if (check !== 'ok') throw new Error(`restore: the backup's database fails integrity_check (${check}); use another backup.`);
    // The old WAL belongs to the old file: left in place it would be replayed onto the restored one.
    for (const suffix of ['-wal', '-shm', '-journal']) await rm(target + suffix, { force: true });
    await rename(temp, target);
  }
  const blobs = path.join(config.dataDir, 'blobs');
  await rm(blobs, { recursive: true, force: true });
  if (existsSync(path.join(backupDir, 'blobs'))) await cp(path.join(backupDir, 'blobs'), blobs, { recursive: true });
  for (const name of KEY_FILES) {
    if (existsSync(path.join(backupDir, name))) await copyFile(path.join(backupDir, name), path.join(config.dataDir, name));
  }
  return manifest;
}
