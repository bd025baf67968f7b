import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { format, isAdmin, messages, validateExportRequest, type DashboardExportRequest, type Room, type User } from '@atendimento/schemas';
import { parseJson } from '../../db/knex';
import { EXPORT_CSV_JSON, type createExportRepository } from '../../db/repositories/report-repository';
import type { ExportJobRepository, ExportJobRow, ExportJobStatus } from '../../db/repositories/export-job-repository';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Mailer } from '../mail/mailer';
import { forbidden, notFound, validationError } from '../../errors';
import { localDayHour } from './report-facts';

/**
 * Rooms read per statement; the file is written as pages arrive, never held whole. The page
 * size barely matters for memory (B13d: 50, 250 and 1,000 rooms grew the heap alike while whole
 * rooms were parsed; the CSV now reads only its fields, docs/exports.md "Memory").
 */
const PAGE = 250;
/** How long a download link works. */
export const EXPORT_LINK_TTL_MS = 24 * 3_600_000;
/** A runner's hold on a job. */
export const EXPORT_LEASE_MS = 30_000;
/** How often a runner renews its lease and records the rows written (the progress callers see). */
const RENEW_MS = 2_000;
/** A job that took its process down this many times is failed instead of tried again. */
export const EXPORT_MAX_ATTEMPTS = 3;
/** Finished jobs are kept this long (progress, the link's lookup), then deleted. */
export const EXPORT_KEEP_MS = 7 * 24 * 3_600_000;

/** The part of a room the CSV shows (read as such, not parsed whole: docs/exports.md "Memory"). */
type ExportRoom = Pick<Room, 'roomInc' | 'id' | 'channel' | 'channelId' | 'author' | 'chatId' | 'departmentId' | 'agentsHistory' | 'tagsNames' | 'active' | 'closedBy' | 'nps' | 'csat'> & { lifeControl: { createdAt: string } };

function surveyOf<T extends Room['nps'] | Room['csat']>(fromJson: T, column: unknown): T {
  if (column === null || column === undefined || column === '') return fromJson;
  return { ...(fromJson ?? {}), value: Number(column) } as T;
}

/** A row of the export's CSV projection (`x_<field>`: JSON text of that field of the room). */
function exportRoomOf(row: Record<string, unknown>): ExportRoom {
  const x = <T>(field: (typeof EXPORT_CSV_JSON)[number], fallback: T): T => parseJson<T>(row[`x_${field}`], fallback) ?? fallback;
  return {
    roomInc: Number(row.room_inc),
    id: String(row.id),
    channel: String(row.channel) as Room['channel'],
    channelId: x<Room['channelId']>('channelId', (row.channel_id as string | null) ?? null),
    author: x<Room['author']>('author', { id: '', displayName: '' } as Room['author']),
    chatId: String(row.chat_id),
    departmentId: (row.department_id as string | null) ?? null,
    agentsHistory: x<Room['agentsHistory']>('agentsHistory', []),
    tagsNames: x<Room['tagsNames']>('tagsNames', []),
    active: Boolean(row.active),
    closedBy: x<Room['closedBy']>('closedBy', null as Room['closedBy']),
    // The survey's value column is what the reports count; the JSON adds the answer date.
    nps: surveyOf(x<Room['nps']>('nps', null as Room['nps']), row.nps_value),
    csat: surveyOf(x<Room['csat']>('csat', null as Room['csat']), row.csat_value),
    lifeControl: { createdAt: String(row.created_at) },
  };
}

const COLUMNS: [header: string, value: (room: ExportRoom, local: (iso: string | null | undefined) => string) => unknown][] = [
  ['Código', (r) => r.roomInc],
  ['Id', (r) => r.id],
  ['Canal', (r) => r.channel],
  ['Canal (id)', (r) => (Array.isArray(r.channelId) ? r.channelId.join('|') : r.channelId)],
  ['Contato', (r) => r.author?.displayName ?? ''],
  ['Contato (id)', (r) => r.author?.id ?? ''],
  ['Chat', (r) => r.chatId],
  ['Departamento', (r) => r.departmentId ?? ''],
  ['Agentes', (r) => r.agentsHistory.map((a) => a.displayName ?? a.id).join('|')],
  ['Etiquetas', (r) => r.tagsNames.join('|')],
  ['Criado em', (r, local) => local(r.lifeControl.createdAt)],
  ['Encerrado em', (r, local) => local(r.closedBy?.closedAt)],
  ['Ativo', (r) => (r.active ? 'sim' : 'não')],
  ['Justificativa', (r) => r.closedBy?.justify ?? ''],
  ['Observação', (r) => r.closedBy?.obs ?? ''],
  ['NPS', (r) => r.nps?.value ?? ''],
  ['NPS respondido em', (r, local) => local(r.nps?.answerdAt)],
  ['CSAT', (r) => r.csat?.value ?? ''],
  ['CSAT respondido em', (r, local) => local(r.csat?.answerdAt)],
];

/** A cell as text with formula injection neutralised (OWASP CSV injection). */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/** What a caller sees of a job (POST answer, GET progress). */
export interface ExportJobView {
  id: string;
  status: ExportJobStatus;
  rows: number;
  /** Rooms written so far (the file is produced page by page). */
  progress: number;
  /** Size of the file once written. */
  bytes: number;
}

interface ExportRequestData {
  request: DashboardExportRequest;
  range: { from: string; to: string };
}

/**
 * Export of full data (seed 002 §7 getExportData; docs/exports.md): the chats of the period by
 * the chosen reference date and time zone, as CSV (semicolons) or JSON, streamed page by page
 * into a file in the background and e-mailed to the caller — attached, or as a link valid 24 h
 * when larger than `attachMaxBytes`. Supervisors export only their departments. A job is a row
 * (`export_jobs`): any process answers its progress, and a job whose process died is claimed
 * again when its lease runs out and produced from the start.
 */
export function createDashboardExportService(deps: {
  repo: ReturnType<typeof createExportRepository>;
  jobs: ExportJobRepository;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  secret: string;
  attachMaxBytes?: number;
}) {
  const { repo, jobs, mailer, clock, logger } = deps;
  const attachMaxBytes = deps.attachMaxBytes ?? 15 * 1024 * 1024;
  const dir = path.join(deps.dataDir, 'exports');
  /** This process's name on the leases it holds. */
  const owner = randomUUID();
  const running = new Map<string, Promise<void>>();
  let stopping = false;
  let timer: ReturnType<typeof setInterval> | null = null;

  const iso = (ms: number) => new Date(ms).toISOString();
  const fileOf = (id: string, type: string) => path.join(dir, `${id}.${type}`);

  function sign(id: string, until: number): string {
    return createHmac('sha256', deps.secret).update(`${id}.${until}`).digest('base64url');
  }

  async function write(stream: WriteStream, chunk: string): Promise<void> {
    if (!stream.write(chunk)) await once(stream, 'drain');
  }

  /** A page of the export as text: the rooms are parsed and dropped before the write is awaited. */
  async function pageText(job: ExportJobRow<ExportRequestData>, after: { at: string; id: string } | null, first: boolean, local: (iso: string | null | undefined) => string): Promise<{ text: string; count: number; last: { at: string; id: string } | null }> {
    const { request, range } = job.request;
    const csv = request.fileType === 'csv';
    const page = await repo.page(job.tenantId, { ...range, reference: request.reference, departments: job.departments }, after, PAGE, csv ? 'csv' : 'json');
    const text = csv
      ? stringify(page.rows.map((row) => { const room = exportRoomOf(row); return COLUMNS.map(([, value]) => cell(value(room, local))); }), { delimiter: ';' })
      // The database builds each room's document, without the public token (a capability to read the chat).
      : (first || page.rows.length === 0 ? '' : ',') + page.rows.map((row) => String(row.export_doc)).join(',');
    return { text, count: page.rows.length, last: page.last };
  }

  /** Produces the file and mails it, while this process holds the job's lease. */
  async function run(job: ExportJobRow<ExportRequestData>): Promise<void> {
    const { request } = job.request;
    mkdirSync(dir, { recursive: true });
    const file = fileOf(job.id, request.fileType);
    const stream = createWriteStream(file, { encoding: 'utf8' });
    const utc = request.timezone === 'UTC';
    const p = (n: number) => String(n).padStart(2, '0');
    // Wall-clock time as UTC fields: 'dd/mm/yyyy - HH:MM:SS'.
    const stamp = (d: Date) => `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} - ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    const local = (at: string | null | undefined): string => {
      if (!at || Number.isNaN(Date.parse(at))) return '';
      const ms = Date.parse(at);
      // A named zone formats with its own rules (DST), through the reports' cached formatter: a
      // new Intl.DateTimeFormat per cell cost ~1 KB of native memory the GC does not see, which
      // grew the process by hundreds of MB over a 100k-room export. The offset the seed sends
      // is the fallback.
      if (!utc) {
        try {
          return stamp(new Date(Math.floor(ms / 1000) * 1000 + localDayHour(ms, request.timezone).offsetMs));
        } catch {
          /* falls through to the offset */
        }
      }
      return stamp(new Date(ms - (utc ? 0 : request.timezoneOffset) * 60_000));
    };
    let rows = 0;
    let renewedAt = clock.now().getTime();
    let outcome: 'sent' | 'failed' | 'lost' | 'stopped' = 'failed';
    let size = 0;
    let linkUntil: string | null = null;
    try {
      if (request.fileType === 'csv') await write(stream, '\ufeff' + stringify([COLUMNS.map(([h]) => h)], { delimiter: ';' }));
      else await write(stream, '[');
      let after: { at: string; id: string } | null = null;
      for (;;) {
        if (stopping) {
          outcome = 'stopped';
          break;
        }
        const page = await pageText(job, after, rows === 0, local);
        if (page.count === 0) break;
        await write(stream, page.text);
        rows += page.count;
        after = page.last;
        const now = clock.now().getTime();
        if (now - renewedAt >= RENEW_MS) {
          renewedAt = now;
          if (!(await jobs.renew(job.id, owner, iso(now + EXPORT_LEASE_MS), rows))) {
            outcome = 'lost';
            break;
          }
        }
        if (page.count < PAGE) break;
      }
      if (outcome === 'stopped' || outcome === 'lost') {
        stream.destroy();
        rmSync(file, { force: true });
        if (outcome === 'stopped') await jobs.release(job.id, owner);
        logger.info({ tenantId: job.tenantId, exportId: job.id, outcome }, 'dashboard.export_interrupted');
        return;
      }
      if (request.fileType === 'json') await write(stream, ']');
      stream.end();
      await once(stream, 'finish');
      size = statSync(file).size;
      const period = `${request.period[0].split('-').reverse().join('/')} ~ ${request.period[1].split('-').reverse().join('/')}`;
      const subject = format(messages.dashboard.exportSubject, { period });
      if (size <= attachMaxBytes) {
        await mailer.send({
          to: job.email,
          subject,
          text: format(messages.dashboard.exportBody, { rows, period }),
          attachments: [{ filename: job.fileName, path: file, contentType: request.fileType === 'csv' ? 'text/csv; charset=utf-8' : 'application/json' }],
        });
        rmSync(file, { force: true });
      } else {
        const until = clock.now().getTime() + EXPORT_LINK_TTL_MS;
        linkUntil = iso(until);
        const url = `${job.baseUrl}/api/dashboard/export/${job.id}/file?until=${until}&sig=${sign(job.id, until)}`;
        await mailer.send({ to: job.email, subject, text: format(messages.dashboard.exportLinkBody, { rows, period, until: new Date(until).toLocaleString('pt-BR', { timeZone: utc ? 'UTC' : request.timezone }), url }) });
      }
      outcome = 'sent';
      logger.info({ tenantId: job.tenantId, exportId: job.id, rows, bytes: size }, 'dashboard.export_sent');
    } catch (err) {
      stream.destroy();
      rmSync(file, { force: true });
      logger.error({ err, tenantId: job.tenantId, exportId: job.id }, 'dashboard.export_failed');
    }
    await jobs.finish(job.id, owner, { status: outcome === 'sent' ? 'sent' : 'failed', rows, bytes: size, linkUntil, at: clock.now().toISOString() });
  }

  /** Claims the job and runs it in the background (at most once per process). */
  async function drive(id: string): Promise<boolean> {
    if (stopping || running.has(id)) return false;
    const now = clock.now().getTime();
    if (!(await jobs.claim(id, owner, iso(now), iso(now + EXPORT_LEASE_MS)))) return false;
    const job = await jobs.findById<ExportRequestData>(id);
    if (!job) return false;
    const done = run(job)
      .catch((err) => logger.error({ err, exportId: id }, 'dashboard.export_failed'))
      .finally(() => running.delete(id));
    running.set(id, done);
    return true;
  }

  /**
   * One turn of the background: waiting or abandoned jobs are claimed (those that failed
   * EXPORT_MAX_ATTEMPTS times are failed), expired links lose their files, old jobs go.
   */
  async function tick(): Promise<void> {
    const now = clock.now().getTime();
    for (const due of await jobs.due(iso(now), 10)) {
      if (due.attempts >= EXPORT_MAX_ATTEMPTS) {
        await jobs.abandon(due.id, iso(now));
        logger.error({ exportId: due.id, attempts: due.attempts }, 'dashboard.export_abandoned');
      } else {
        await drive(due.id);
      }
    }
    for (const expired of await jobs.expiredLinks(iso(now), 100)) {
      for (const ext of ['csv', 'json']) rmSync(fileOf(expired.id, ext), { force: true });
      await jobs.clearLink(expired.id);
    }
    await jobs.deleteFinishedBefore(iso(now - EXPORT_KEEP_MS));
  }

  const viewOf = (job: ExportJobRow<unknown>): ExportJobView => ({ id: job.id, status: job.status, rows: job.rows, progress: job.rows, bytes: job.bytes });

  return {
    /**
     * `POST /api/dashboard/export`: validates (the dialog's four messages), records the job and
     * starts it here; answers at once with the job and the address the file goes to.
     */
    async request(input: { tenantId: string; user: User; supervisorOf: string[]; exportAdminOnly: boolean; timeZone: string; body: unknown; baseUrl: string }): Promise<{ job: ExportJobView; email: string }> {
      const admin = isAdmin(input.user);
      if (input.exportAdminOnly && !admin) throw forbidden();
      const checked = validateExportRequest(input.body, localDayHour(clock.now().getTime(), input.timeZone).day);
      if ('errors' in checked) throw validationError(checked.errors);
      const request = checked.value;
      const offset = request.timezone === 'UTC' ? 0 : request.timezoneOffset;
      // 00:00:00 and 23:59:59 of the chosen days in the chosen zone (offset: minutes behind UTC).
      const from = new Date(Date.parse(`${request.period[0]}T00:00:00.000Z`) + offset * 60_000).toISOString();
      const to = new Date(Date.parse(`${request.period[1]}T23:59:59.999Z`) + offset * 60_000).toISOString();
      const id = randomUUID();
      const fileName = `chats (${request.period[0]} ~ ${request.period[1]}).${request.fileType}`;
      await jobs.create<ExportRequestData>(input.tenantId, {
        id, userId: input.user.id, email: input.user.email, request: { request, range: { from, to } },
        departments: admin ? null : input.supervisorOf, baseUrl: input.baseUrl, fileName, createdAt: clock.now().toISOString(),
      });
      const started = await drive(id);
      return { job: { id, status: started ? 'running' : 'queued', rows: 0, progress: 0, bytes: 0 }, email: input.user.email };
    },

    /** `GET /api/dashboard/export/:id`: the caller's own job's progress. */
    async progress(tenantId: string, userId: string, id: string): Promise<ExportJobView> {
      const job = await jobs.find(tenantId, id);
      if (!job || job.userId !== userId) throw notFound();
      return viewOf(job);
    },

    /** `GET /api/dashboard/export/:id/file?until&sig`: the signed link of a large export, on its own tenant's host only. */
    async file(tenantId: string, id: string, until: unknown, sig: unknown): Promise<{ stream: NodeJS.ReadableStream; fileName: string; type: string }> {
      const untilMs = Number(until);
      if (!/^[0-9a-f-]{36}$/.test(id) || !Number.isFinite(untilMs) || typeof sig !== 'string') throw notFound();
      const expected = Buffer.from(sign(id, untilMs));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given) || untilMs < clock.now().getTime()) throw notFound();
      const job = await jobs.findById<ExportRequestData>(id);
      const type = job?.request.request?.fileType;
      if (!job || job.tenantId !== tenantId || job.status !== 'sent' || (type !== 'csv' && type !== 'json')) throw notFound();
      const file = fileOf(id, type);
      try {
        statSync(file);
      } catch {
        throw notFound();
      }
      return { stream: createReadStream(file), fileName: `chats.${type}`, type: type === 'csv' ? 'text/csv; charset=utf-8' : 'application/json' };
    },

    tick,

    /** Resumes jobs left by a stopped or dead process and keeps the folder clean, every `everyMs`. */
    start(everyMs = 15_000): void {
      stopping = false;
      if (timer) return;
      const turn = () => void tick().catch((err) => logger.error({ err }, 'dashboard.export_tick_failed'));
      timer = setInterval(turn, everyMs);
      timer.unref?.();
      turn();
    },

    /** Stops taking jobs; jobs in progress stop before their next page and are released for the next process. */
    async stop(): Promise<void> {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.all([...running.values()]);
    },

    /** Resolves when the jobs this process runs now are done (tests, bench). */
    async idle(): Promise<void> {
      await Promise.all([...running.values()]);
    },
  };
}

export type DashboardExportService = ReturnType<typeof createDashboardExportService>;
