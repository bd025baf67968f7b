import { randomUUID } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { parse, type Options as CsvOptions } from 'csv-parse';
import { format, isAdmin, messages } from '@atendimento/schemas';
import type { RegisterDefinition, RegisterSchema } from '@atendimento/schemas/registers/index';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { AppError, badRequest, notFound } from '../../errors';
import type { Caller, PreparedWrite, RegisterService } from './register-service';

/** Rows one import may carry; a file with more is refused whole, never cut. */
export const IMPORT_MAX_ROWS = 50_000;
/** Files with more rows run in the background: 202 + GET /api/imports/:jobId (docs/registers.md). */
export const IMPORT_BACKGROUND_ROWS = 5_000;
/**
 * Rows per chunk: validated (then a yield), written 200 rows per statement (a yield between
 * statements) and, for a background job on SQLite, committed, before the next chunk.
 */
const CHUNK = 500;
/** Characters of CSV parsed between two yields. */
const PARSE_SLICE = 32 * 1024;
/** Background imports running at once in a process (each holds its parsed file in memory). */
const JOBS_RUNNING_MAX = 4;
/** A finished job's report is kept this long, then forgotten. */
const JOB_KEPT_MS = 60 * 60 * 1000;
/** Per-row errors a background job's report keeps (the rest are counted in `failed`). */
const JOB_ERRORS_KEPT = 100;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Per-row errors listed in the answer's message (the rest are counted). */
const ERRORS_LISTED = 20;

const TRUE = new Set(['true', '1', 'sim', 's', 'yes', 'y', 'verdadeiro', 'x']);
const FALSE = new Set(['false', '0', 'nao', 'não', 'n', 'no', 'falso']);

function typeOf(schema: RegisterSchema | undefined): string | undefined {
  return schema ? (Array.isArray(schema.type) ? schema.type[0] : schema.type) : undefined;
}

/** Undoes export's formula escaping ('=1 → =1 as text) so an exported file imports back. */
function unescapeCell(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** One CSV cell → the field's type; what does not convert stays text and fails validation. */
function cellValue(schema: RegisterSchema | undefined, raw: string): unknown {
  const text = unescapeCell(raw.trim());
  if (text === '') return undefined;
  switch (typeOf(schema)) {
    case 'boolean': {
      const t = text.toLowerCase();
      return TRUE.has(t) ? true : FALSE.has(t) ? false : text;
    }
    case 'number':
    case 'integer': {
      const normalised = /^-?\d{1,3}(\.\d{3})*,\d+$/.test(text) ? text.replace(/\./g, '').replace(',', '.') : text.replace(',', '.');
      const n = Number(normalised);
      return Number.isFinite(n) ? n : text;
    }
    case 'array':
      return text.split('|').map((v) => cellValue(schema?.items, v)).filter((v) => v !== undefined);
    case 'object':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}

function detectDelimiter(text: string): string {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = [';', ',', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ';';
}

/**
 * Parses CSV text with csv-parse's streaming parser, a slice at a time, yielding to the event
 * loop between slices (the synchronous parser held it for the whole file). Stops once it has
 * more than `maxRecords` records: the caller refuses such a file whole.
 */
async function parseCsv(text: string, options: CsvOptions, maxRecords: number): Promise<string[][]> {
  const records: string[][] = [];
  const parser = parse(options);
  let failure: Error | null = null;
  parser.on('data', (record: string[]) => records.push(record));
  parser.on('error', (error: Error) => {
    failure ??= error;
  });
  for (let offset = 0; offset < text.length && !failure && records.length <= maxRecords; offset += PARSE_SLICE) {
    parser.write(text.slice(offset, offset + PARSE_SLICE));
    await yieldToLoop();
  }
  if (records.length > maxRecords) {
    parser.destroy();
    return records;
  }
  if (!failure) {
    parser.end();
    await finished(parser).catch((error: Error) => {
      failure ??= error;
    });
  }
  if (failure) throw failure;
  return records;
}

type RowErrors = { line: number; errors: { field: string; message: string }[] };

interface ImportResult {
  meta: { hasErrors: boolean; imported: number; failed: number; total: number };
  data: { message: string; errors: RowErrors[] };
}

/** A parsed file: its columns (checked against the register) and its data rows (line = index + 2). */
interface ParsedFile {
  definition: RegisterDefinition;
  columns: string[];
  data: string[][];
  defaults: Record<string, unknown>;
}

/** What GET /api/imports/:jobId answers (`data`). */
export interface ImportJobReport {
  state: 'running' | 'done' | 'failed';
  processed: number;
  total: number;
  /** Valid rows written so far (on PostgreSQL visible only once the job's one transaction commits). */
  imported: number;
  failed: number;
  /** The first rows with errors (JOB_ERRORS_KEPT); `failed` counts them all. */
  errors: RowErrors[];
  /** Why a failed job stopped, and which rows were imported before (pt-BR). */
  errorMessage?: string;
  /** When done: the same message (and hasErrors) the synchronous answer carries. */
  message?: string;
  hasErrors?: boolean;
}

interface ImportJob {
  id: string;
  tenantId: string;
  userId: string;
  register: string;
  report: ImportJobReport;
  endedAt: number | null;
  done: Promise<void>;
}

function resultMessage(imported: number, failed: number, errors: RowErrors[]): string {
  const listed = errors.slice(0, ERRORS_LISTED).map((e) => format(messages.registers.importRow, { line: e.line, errors: e.errors.map((f) => f.message).join(', ') }));
  return failed
    ? format(messages.registers.importWithErrors, { n: imported, failed, errors: listed.join('; ') + (failed > ERRORS_LISTED ? '; ...' : '') })
    : format(messages.registers.importDone, { n: imported });
}

/**
 * CSV import (seed 000 §7 "POST /{collection}/import"): the first row names fields (the
 * register's CSV template), lists are separated by |, booleans read sim/não/true/false.
 * Every row is validated like a form save; rows with errors are reported per line and skipped.
 * The file is parsed, validated and written in chunks, yielding to the event loop between them,
 * so a 50,000-row file does not stall other requests (health p50 went to 1.2 s during one).
 *
 * - Up to IMPORT_BACKGROUND_ROWS rows: answered when done (200, meta.hasErrors + data.message);
 *   the valid rows go in ONE transaction, so a fatal error imports nothing.
 * - More: 202 `{ meta: { jobId, total } }` at once; the job runs in this process and reports on
 *   GET /api/imports/:jobId. `atomicBackground` (PostgreSQL) keeps one transaction for the whole
 *   file, chunked inside; otherwise (SQLite: one connection, a long transaction would hold every
 *   other request) each chunk commits on its own and a failure says which lines were imported.
 *
 * In both cases an unreadable file, an unknown column or too many rows is refused before
 * anything is written. Jobs live in memory: a restart loses a running job's report (rows already
 * committed stay); a finished job is forgotten an hour after it ends.
 */
export function createImportService(deps: { registers: RegisterService; clock: Clock; logger: Logger; atomicBackground: boolean }) {
  const jobs = new Map<string, ImportJob>();
  let stopping = false;

  function sweep(): void {
    const now = deps.clock.now().getTime();
    for (const [id, job] of jobs) if (job.endedAt !== null && now - job.endedAt > JOB_KEPT_MS) jobs.delete(id);
  }

  async function parseFile(definition: RegisterDefinition, bytes: Buffer, defaults: Record<string, unknown>): Promise<ParsedFile> {
    const text = bytes.toString('utf8').replace(/^\ufeff/, '');
    if (text.includes('\u0000')) throw badRequest('import_invalid_csv', format(messages.registers.importInvalidCsv, { detail: 'arquivo binário' }));
    const properties = definition.schema.properties ?? {};
    let rows: string[][];
    try {
      // Header + the limit + one more row: enough to know the file is over the limit (never cut:
      // 50,005 rows were once cut to 50,000 and reported as imported).
      rows = await parseCsv(text, { delimiter: detectDelimiter(text), skip_empty_lines: true, relax_quotes: false, bom: true, max_record_size: 1_000_000 }, IMPORT_MAX_ROWS + 1);
    } catch (error) {
      throw badRequest('import_invalid_csv', format(messages.registers.importInvalidCsv, { detail: (error as Error).message.slice(0, 200) }));
    }
    const [header, ...data] = rows;
    if (!header || data.length === 0) throw badRequest('import_no_rows', messages.registers.importNoRows);
    if (data.length > IMPORT_MAX_ROWS) throw new AppError(413, 'import_too_many_rows', format(messages.registers.importTooManyRows, { max: IMPORT_MAX_ROWS.toLocaleString('pt-BR') }));
    const columns = header.map((h) => h.trim());
    for (const column of columns) {
      if (column === 'id' || column === 'lifeControl.createdAt') continue;
      if (!(column in properties) || definition.list.serverFields.includes(column)) {
        throw badRequest('import_unknown_column', format(messages.registers.importUnknownColumn, { column: column || '(vazia)' }));
      }
    }
    return { definition, columns, data, defaults };
  }

  /** The form body of data rows [start, end). */
  function bodiesOf(file: ParsedFile, start: number, end: number): Record<string, unknown>[] {
    const properties = file.definition.schema.properties ?? {};
    return file.data.slice(start, end).map((cells) => {
      const body: Record<string, unknown> = { ...file.defaults };
      file.columns.forEach((column, i) => {
        if (column === 'id' || column === 'lifeControl.createdAt') return;
        const value = cellValue(properties[column], cells[i] ?? '');
        if (value !== undefined) body[column] = value;
      });
      return body;
    });
  }

  /** Today's answer for a small file: validated in chunks, then one transaction. */
  async function importNow(caller: Caller, name: string, file: ParsedFile): Promise<ImportResult> {
    const writes: PreparedWrite[] = [];
    const errors: RowErrors[] = [];
    for (let start = 0; start < file.data.length; start += CHUNK) {
      deps.registers.prepareMany(caller, name, bodiesOf(file, start, start + CHUNK)).forEach((result, i) => {
        if (result.ok) writes.push(result.write);
        else errors.push({ line: start + i + 2, errors: result.errors });
      });
      await yieldToLoop();
    }
    if (writes.length) await deps.registers.createMany(caller, name, writes);
    const total = file.data.length;
    return { meta: { hasErrors: errors.length > 0, imported: writes.length, failed: errors.length, total }, data: { message: resultMessage(writes.length, errors.length, errors), errors } };
  }

  /** A background job: chunk by chunk (validate, write, yield), reporting as it goes. */
  async function run(job: ImportJob, caller: Caller, name: string, file: ParsedFile): Promise<void> {
    const report = job.report;
    const atomic = deps.atomicBackground;
    /** Data rows [0, written) are written (atomic) or committed (per chunk); [written, chunkEnd) is the chunk in hand. */
    let written = 0;
    let chunkEnd = 0;
    let writtenValid = 0;
    let chunkValid = 0;
    async function* batches(): AsyncGenerator<PreparedWrite[]> {
      for (let start = 0; start < file.data.length; start += CHUNK) {
        if (stopping) throw new AppError(503, 'import_stopped', messages.registers.importStopped);
        chunkEnd = Math.min(start + CHUNK, file.data.length);
        const writes: PreparedWrite[] = [];
        deps.registers.prepareMany(caller, name, bodiesOf(file, start, chunkEnd)).forEach((result, i) => {
          if (result.ok) writes.push(result.write);
          else {
            report.failed += 1;
            if (report.errors.length < JOB_ERRORS_KEPT) report.errors.push({ line: start + i + 2, errors: result.errors });
          }
        });
        chunkValid = writes.length;
        await yieldToLoop();
        yield writes;
        // Resumed: the consumer wrote (atomic) or committed (per chunk) this chunk.
        written = chunkEnd;
        writtenValid += chunkValid;
        report.processed = written;
        report.imported = writtenValid;
        await yieldToLoop();
      }
    }
    try {
      await deps.registers.createBatches(caller, name, batches(), { atomic, pause: yieldToLoop });
      report.processed = file.data.length;
      report.imported = writtenValid;
      report.hasErrors = report.failed > 0;
      report.message = resultMessage(report.imported, report.failed, report.errors);
      report.state = 'done';
    } catch (error) {
      if (!(error instanceof AppError)) deps.logger.error({ err: error, register: name, tenantId: caller.tenant.id, jobId: job.id }, 'registers.import_failed');
      const detail = (error instanceof AppError ? error.errorMessage : messages.errors.internal).replace(/\.$/, '');
      // The chunk in hand (chunks start at multiples of CHUNK); a failed commit of an atomic job: its last chunk.
      const total = file.data.length;
      const first = written < total ? written : Math.floor((total - 1) / CHUNK) * CHUNK;
      const from = first + 2;
      const to = Math.min(first + CHUNK, total) + 1;
      if (atomic || written === 0) {
        report.imported = 0;
        report.errorMessage = format(messages.registers.importFailedNothing, { from, to, detail });
      } else {
        report.imported = writtenValid;
        report.errorMessage = format(messages.registers.importFailedPartial, { from, to, last: written + 1, detail });
      }
      report.state = 'failed';
    } finally {
      job.endedAt = deps.clock.now().getTime();
    }
  }

  return {
    /**
     * POST /{register}/import: 200 with the result for a small file, 202 with the job for a
     * big one (more than IMPORT_BACKGROUND_ROWS rows). Refusals (4xx) come before anything runs.
     */
    async importCsv(
      caller: Caller,
      name: string,
      bytes: Buffer,
      defaults: Record<string, unknown> = {},
    ): Promise<{ status: 200; body: ImportResult } | { status: 202; body: { meta: { jobId: string; total: number } } }> {
      const definition = deps.registers.definition(name);
      const file = await parseFile(definition, bytes, defaults);
      if (file.data.length <= IMPORT_BACKGROUND_ROWS) return { status: 200, body: await importNow(caller, name, file) };
      sweep();
      if (stopping) throw new AppError(503, 'import_stopped', messages.registers.importStopped);
      const running = [...jobs.values()].filter((j) => j.report.state === 'running').length;
      if (running >= JOBS_RUNNING_MAX) throw new AppError(503, 'imports_busy', messages.registers.importsBusy, { headers: { 'Retry-After': '60' } });
      const total = file.data.length;
      const job: ImportJob = {
        id: randomUUID(),
        tenantId: caller.tenant.id,
        userId: caller.user.id,
        register: name,
        report: { state: 'running', processed: 0, total, imported: 0, failed: 0, errors: [] },
        endedAt: null,
        done: Promise.resolve(),
      };
      jobs.set(job.id, job);
      // Never rejects: run() turns every failure into the job's report.
      job.done = run(job, caller, name, file);
      return { status: 202, body: { meta: { jobId: job.id, total } } };
    },

    /** GET /api/imports/:jobId: the caller's own job (any job of the tenant for an admin). */
    report(caller: Caller, jobId: string): ImportJobReport {
      sweep();
      const job = jobs.get(jobId);
      if (!job || job.tenantId !== caller.tenant.id || (job.userId !== caller.user.id && !isAdmin(caller.user))) {
        throw notFound('import_not_found', messages.registers.importJobNotFound);
      }
      // The import's own rule: who may no longer write the register no longer sees its job.
      deps.registers.prepareMany(caller, job.register, []);
      const { errorMessage, message, hasErrors, ...rest } = job.report;
      return { ...rest, errors: [...rest.errors], ...(errorMessage !== undefined && { errorMessage }), ...(message !== undefined && { message, hasErrors }) };
    },

    /** Graceful stop: running jobs stop before their next chunk (reported as failed), then this resolves. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all([...jobs.values()].map((job) => job.done));
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
