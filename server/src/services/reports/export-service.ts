import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { format, isAdmin, messages, validateExportRequest, type DashboardExportRequest, type User } from '@atendimento/schemas';
import { roomFromRow } from '../../db/repositories/room-repository';
import type { createExportRepository } from '../../db/repositories/report-repository';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Mailer } from '../mail/mailer';
import { forbidden, notFound, validationError } from '../../errors';
import { localDayHour } from './report-facts';

/**
 * Rooms read per statement; the file is written as pages arrive, never held whole. Small pages
 * keep what survives each await (and is promoted to V8's old space) small: B13d measured 221–281 MB
 * of RSS growth with pages of 1,000 rooms on a loaded box.
 */
const PAGE = 250;
/** Above this the mail carries a time-limited link instead of the file. */
export const EXPORT_ATTACH_MAX_BYTES = 15 * 1024 * 1024;
/** How long a download link works. */
export const EXPORT_LINK_TTL_MS = 24 * 3_600_000;

const COLUMNS: [header: string, value: (room: ReturnType<typeof roomFromRow>, local: (iso: string | null | undefined) => string) => unknown][] = [
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

export interface ExportJob {
  id: string;
  tenantId: string;
  userId: string;
  status: 'running' | 'sent' | 'failed';
  rows: number;
  /** Rooms written / pages read so far (progress for GET /api/dashboard/export/:id). */
  progress: number;
  /** Size of the file once written. */
  bytes: number;
  fileName: string;
}

/**
 * Export of full data (seed 002 §7 getExportData): the chats of the period by the chosen
 * reference date and time zone, as CSV (semicolons) or JSON, streamed page by page into a
 * file in the background and e-mailed to the caller — attached, or as a link valid 24 h when
 * larger than 15 MB. Supervisors export only their departments.
 */
export function createDashboardExportService(deps: {
  repo: ReturnType<typeof createExportRepository>;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  secret: string;
}) {
  const { repo, mailer, clock, logger } = deps;
  const dir = path.join(deps.dataDir, 'exports');
  const jobs = new Map<string, ExportJob>();

  function sign(id: string, until: number): string {
    return createHmac('sha256', deps.secret).update(`${id}.${until}`).digest('base64url');
  }

  async function write(stream: WriteStream, chunk: string): Promise<void> {
    if (!stream.write(chunk)) await once(stream, 'drain');
  }

  async function run(job: ExportJob, request: DashboardExportRequest, range: { from: string; to: string }, departments: string[] | null, email: string, baseUrl: string): Promise<void> {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${job.id}.${request.fileType}`);
    const stream = createWriteStream(file, { encoding: 'utf8' });
    const utc = request.timezone === 'UTC';
    const p = (n: number) => String(n).padStart(2, '0');
    // Wall-clock time as UTC fields: 'dd/mm/yyyy - HH:MM:SS'.
    const stamp = (d: Date) => `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} - ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    const local = (iso: string | null | undefined): string => {
      if (!iso || Number.isNaN(Date.parse(iso))) return '';
      const at = Date.parse(iso);
      // A named zone formats with its own rules (DST), through the reports' cached formatter: a
      // new Intl.DateTimeFormat per cell cost ~1 KB of native memory the GC does not see, which
      // grew the process by hundreds of MB over a 100k-room export. The offset the seed sends
      // is the fallback.
      if (!utc) {
        try {
          return stamp(new Date(Math.floor(at / 1000) * 1000 + localDayHour(at, request.timezone).offsetMs));
        } catch {
          /* falls through to the offset */
        }
      }
      return stamp(new Date(at - (utc ? 0 : request.timezoneOffset) * 60_000));
    };
    try {
      if (request.fileType === 'csv') await write(stream, '\ufeff' + stringify([COLUMNS.map(([h]) => h)], { delimiter: ';' }));
      else await write(stream, '[');
      let after: { at: string; id: string } | null = null;
      for (;;) {
        const page = await repo.page(job.tenantId, { ...range, reference: request.reference, departments }, after, PAGE);
        if (page.rows.length === 0) break;
        const rooms = page.rows.map((r) => roomFromRow(r));
        if (request.fileType === 'csv') {
          await write(stream, stringify(rooms.map((room) => COLUMNS.map(([, value]) => cell(value(room, local)))), { delimiter: ';' }));
        } else {
          // The public token is a capability to read the chat: it never leaves in an export.
          const json = rooms.map((room) => JSON.stringify({ ...room, publicToken: undefined })).join(',');
          await write(stream, (job.rows ? ',' : '') + json);
        }
        job.rows += rooms.length;
        job.progress = job.rows;
        after = page.last;
        if (page.rows.length < PAGE) break;
      }
      if (request.fileType === 'json') await write(stream, ']');
      stream.end();
      await once(stream, 'finish');
      const size = statSync(file).size;
      job.bytes = size;
      const period = `${request.period[0].split('-').reverse().join('/')} ~ ${request.period[1].split('-').reverse().join('/')}`;
      const subject = format(messages.dashboard.exportSubject, { period });
      if (size <= EXPORT_ATTACH_MAX_BYTES) {
        await mailer.send({
          to: email,
          subject,
          text: format(messages.dashboard.exportBody, { rows: job.rows, period }),
          attachments: [{ filename: job.fileName, path: file, contentType: request.fileType === 'csv' ? 'text/csv; charset=utf-8' : 'application/json' }],
        });
        unlinkSync(file);
      } else {
        const until = clock.now().getTime() + EXPORT_LINK_TTL_MS;
        const url = `${baseUrl}/api/dashboard/export/${job.id}/file?until=${until}&sig=${sign(job.id, until)}`;
        await mailer.send({ to: email, subject, text: format(messages.dashboard.exportLinkBody, { rows: job.rows, period, until: new Date(until).toLocaleString('pt-BR', { timeZone: utc ? 'UTC' : request.timezone }), url }) });
      }
      job.status = 'sent';
      logger.info({ tenantId: job.tenantId, exportId: job.id, rows: job.rows, bytes: size }, 'dashboard.export_sent');
    } catch (err) {
      job.status = 'failed';
      stream.destroy();
      try {
        unlinkSync(file);
      } catch {
        /* nothing written */
      }
      logger.error({ err, tenantId: job.tenantId, exportId: job.id }, 'dashboard.export_failed');
    }
  }

  return {
    /**
     * `POST /api/dashboard/export`: validates (the dialog's four messages), answers at once
     * with the job and the address the file goes to; the file is produced in the background.
     */
    request(input: { tenantId: string; user: User; supervisorOf: string[]; exportAdminOnly: boolean; timeZone: string; body: unknown; baseUrl: string }): { job: ExportJob; done: Promise<void>; email: string } {
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
      const job: ExportJob = { id, tenantId: input.tenantId, userId: input.user.id, status: 'running', rows: 0, progress: 0, bytes: 0, fileName: `chats (${request.period[0]} ~ ${request.period[1]}).${request.fileType}` };
      jobs.set(id, job);
      const done = run(job, request, { from, to }, admin ? null : input.supervisorOf, input.user.email, input.baseUrl);
      return { job, done, email: input.user.email };
    },

    /** `GET /api/dashboard/export/:id`: the caller's own job's progress. */
    progress(tenantId: string, userId: string, id: string): ExportJob {
      const job = jobs.get(id);
      if (!job || job.tenantId !== tenantId || job.userId !== userId) throw notFound();
      return job;
    },

    /** `GET /api/dashboard/export/:id/file?until&sig`: the signed link of a large export. */
    file(id: string, until: unknown, sig: unknown): { stream: NodeJS.ReadableStream; fileName: string; type: string } {
      const untilMs = Number(until);
      if (!/^[0-9a-f-]{36}$/.test(id) || !Number.isFinite(untilMs) || typeof sig !== 'string') throw notFound();
      const expected = Buffer.from(sign(id, untilMs));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given) || untilMs < clock.now().getTime()) throw notFound();
      for (const ext of ['csv', 'json'] as const) {
        const file = path.join(dir, `${id}.${ext}`);
        try {
          statSync(file);
          return { stream: createReadStream(file), fileName: `chats.${ext}`, type: ext === 'csv' ? 'text/csv; charset=utf-8' : 'application/json' };
        } catch {
          /* the other type */
        }
      }
      throw notFound();
    },
  };
}

export type DashboardExportService = ReturnType<typeof createDashboardExportService>;
