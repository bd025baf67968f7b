import { stringify } from 'csv-stringify/sync';
import { format, getPath, messages, type Filter } from '@atendimento/schemas';
import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { Logger } from '../../logger';
import type { Clock } from '../../clock';
import { badRequest, validationError } from '../../errors';
import type { RecordData } from '../../db/repositories/register-repository';
import type { RegisterLookups } from '../../db/repositories/register-lookups';
import type { Mailer } from '../mail/mailer';
import type { Caller, RegisterService } from './register-service';
import type { ParsedListQuery } from './register-query';

/** Rows any export reads at most (pages of 1000, one statement each). */
const EXPORT_MAX_ROWS = 100_000;
/** The report (print) dialog's limit (seed 000 §9). */
const REPORT_MAX_ROWS = 999;
const CSV_DELIMITER = ';';
const DAY = 86_400_000;

/**
 * CSV/spreadsheet formula injection (OWASP): a cell starting with = + - @ tab or CR is run as
 * a formula by Excel/LibreOffice; prefixing ' makes it text. Import strips that prefix again.
 */
function escapeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A value as one cell: lists joined by |, objects as JSON, formulas escaped. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return escapeCell(value.map((v) => (v && typeof v === 'object' ? JSON.stringify(v) : String(v))).join('|'));
  if (typeof value === 'object') return escapeCell(JSON.stringify(value));
  return escapeCell(String(value));
}

/** Columns of a CSV export: id, the import template's fields, then the listed columns, then dates. */
function exportFields(definition: RegisterDefinition): string[] {
  const { list } = definition;
  const fields = ['id', ...list.csvTemplate];
  for (const column of list.columns) if (!fields.includes(column.field) && column.type !== 'image') fields.push(column.field);
  if (!fields.includes('lifeControl.createdAt')) fields.push('lifeControl.createdAt');
  return fields.filter((f) => !list.writeOnlyFields.includes(f));
}

function labelOf(definition: RegisterDefinition, field: string): string {
  if (field === 'id') return 'Id';
  if (field === 'lifeControl.createdAt') return 'Criado em';
  const column = definition.list.columns.find((c) => c.field === field);
  return column?.label ?? definition.schema.properties?.[field]?.title ?? field;
}

/** The export period (seed 000 §5, 002 §5): reversed ranges are swapped; at most 90 days. */
function parsePeriod(raw: unknown, offsetMinutes: number): { from: string; to: string; label: string } {
  const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split('~') : [];
  const dates = parts.map((p) => String(p).trim()).filter((p) => /^\d{4}-\d{2}-\d{2}$/.test(p) && !Number.isNaN(Date.parse(`${p}T00:00:00Z`)));
  if (parts.length !== 2 || dates.length !== 2) throw validationError([{ field: 'period', message: messages.validation.exportPeriod90 }]);
  let [a, b] = dates as [string, string];
  if (a > b) [a, b] = [b, a];
  if ((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY > 90) throw validationError([{ field: 'period', message: messages.validation.exportPeriod90 }]);
  // 00:00:00 and 23:59:59 in the caller's zone (offset as Date#getTimezoneOffset: minutes behind UTC).
  const from = new Date(Date.parse(`${a}T00:00:00.000Z`) + offsetMinutes * 60_000).toISOString();
  const to = new Date(Date.parse(`${b}T23:59:59.999Z`) + offsetMinutes * 60_000).toISOString();
  return { from, to, label: `${a.split('-').reverse().join('/')} ~ ${b.split('-').reverse().join('/')}` };
}

interface MailExportInput {
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks the e-mailed export's type, zone, period and recipient with the seed's messages. */
function checkMailExport(caller: Caller, input: MailExportInput) {
  const fields: { field: string; message: string }[] = [];
  const type = input.query.type ?? input.body.type;
  if (type !== 'csv' && type !== 'json') fields.push({ field: 'type', message: messages.validation.exportFileType });
  const timezone = input.body.timezone;
  if (typeof timezone !== 'string' || timezone.trim() === '') fields.push({ field: 'timezone', message: messages.validation.exportTimezone });
  const offsetRaw = input.body.timezoneOffset ?? 0;
  const offset = Number(offsetRaw);
  if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60) fields.push({ field: 'timezoneOffset', message: messages.validation.exportTimezone });
  const recipient = input.body.recipient ?? caller.user.email;
  if (typeof recipient !== 'string' || !EMAIL.test(recipient)) fields.push({ field: 'recipient', message: messages.validation.emailInvalid });
  const bcc = input.body.bcc;
  if (bcc !== undefined && bcc !== null && bcc !== '' && (typeof bcc !== 'string' || !EMAIL.test(bcc))) fields.push({ field: 'bcc', message: messages.validation.emailInvalid });
  if (fields.length) throw validationError(fields);
  const utc = String(timezone).toLowerCase() === 'utc';
  const period = parsePeriod(input.body.period ?? input.query.period, utc ? 0 : offset);
  return { type: type as 'csv' | 'json', offset: utc ? 0 : offset, recipient: recipient as string, bcc: typeof bcc === 'string' && bcc ? bcc : undefined, period };
}

function localTime(iso: unknown, offsetMinutes: number): string {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(Date.parse(iso) - offsetMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} - ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/**
 * Register exports (seed 000 §2 toolbar, §7 calls): raw CSV, xlsx, a printable PDF list, and
 * exports e-mailed through the product's mailer (the file attached) with the seed's period,
 * type and timezone rules.
 */
export function createExportService(deps: { registers: RegisterService; lookups: RegisterLookups; mailer: Mailer; clock: Clock; logger: Logger }) {
  const { registers } = deps;

  /** Every record of a query the caller may see, page by page (one statement per 1000 rows). */
  async function collect(caller: Caller, name: string, query: ParsedListQuery, max = EXPORT_MAX_ROWS): Promise<RecordData[]> {
    const out: RecordData[] = [];
    for (let offset = 0; out.length < max; offset += 1000) {
      const page = await registers.list(caller, name, { ...query, offset, limit: Math.min(1000, max - out.length) });
      out.push(...page.records);
      if (page.records.length < 1000) break;
    }
    return out;
  }

  function csvOf(definition: RegisterDefinition, records: RecordData[]): Buffer {
    const fields = exportFields(definition);
    const rows = [fields, ...records.map((r) => fields.map((f) => cellText(getPath(r, f))))];
    // BOM: Excel opens UTF-8 with accents correctly.
    return Buffer.from('\ufeff' + stringify(rows, { delimiter: CSV_DELIMITER }), 'utf8');
  }

  return {
    collect,
    exportFields,

    async csv(caller: Caller, name: string, query: ParsedListQuery): Promise<{ body: Buffer; fileName: string }> {
      const definition = registers.definition(name);
      return { body: csvOf(definition, await collect(caller, name, query)), fileName: `${name}.csv` };
    },

    /** The import template: the header row of the register's CSV template. */
    template(name: string): { body: Buffer; fileName: string } {
      const definition = registers.definition(name);
      return { body: Buffer.from('\ufeff' + stringify([definition.list.csvTemplate], { delimiter: CSV_DELIMITER }), 'utf8'), fileName: `modelo-${name}.csv` };
    },

    async xlsx(caller: Caller, name: string, query: ParsedListQuery): Promise<{ body: Buffer; fileName: string }> {
      const definition = registers.definition(name);
      const records = await collect(caller, name, query);
      const fields = exportFields(definition);
      // exceljs and pdfkit load on the first export, not at start-up (~1.5 s of a restart, docs/bench.md B12).
      const { default: ExcelJS } = await import('exceljs');
      const workbook = new ExcelJS.Workbook();
      workbook.creator = 'Atendimento';
      const sheet = workbook.addWorksheet(definition.list.label.slice(0, 31));
      sheet.columns = fields.map((f) => ({ header: labelOf(definition, f), key: f, width: Math.min(40, Math.max(12, labelOf(definition, f).length + 4)) }));
      sheet.getRow(1).font = { bold: true };
      for (const record of records) {
        const row: Record<string, unknown> = {};
        for (const f of fields) {
          const value = getPath(record, f);
          // Numbers and booleans stay typed; every text goes through the same escaping as CSV.
          row[f] = typeof value === 'number' || typeof value === 'boolean' ? value : cellText(value);
        }
        sheet.addRow(row);
      }
      const body = Buffer.from(await workbook.xlsx.writeBuffer());
      return { body, fileName: `${name}.xlsx` };
    },

    /** The printable list (seed 000 §2 "print list (PDF preview)"), at most 999 rows. */
    async pdf(caller: Caller, name: string, query: ParsedListQuery): Promise<{ body: Buffer; fileName: string }> {
      const definition = registers.definition(name);
      const records = await collect(caller, name, query, REPORT_MAX_ROWS + 1);
      const truncated = records.length > REPORT_MAX_ROWS;
      const shown = records.slice(0, REPORT_MAX_ROWS);
      const columns = definition.list.columns.filter((c) => c.type !== 'image');
      const { default: PDFDocument } = await import('pdfkit');
      const doc = new PDFDocument({ size: 'A4', layout: columns.length > 4 ? 'landscape' : 'portrait', margin: 36, info: { Title: definition.list.label, Creator: 'Atendimento' } });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
      const width = doc.page.width - 72;
      const colWidth = width / Math.max(1, columns.length);
      doc.fontSize(16).text(format(messages.registers.reportTitle, { name: definition.list.label }));
      doc.fontSize(9).fillColor('#555').text(format(messages.registers.reportGenerated, { date: localTime(deps.clock.now().toISOString(), 180), rows: records.length > REPORT_MAX_ROWS ? `${REPORT_MAX_ROWS}+` : records.length }));
      if (truncated) doc.text(format(messages.registers.reportTruncated, { n: REPORT_MAX_ROWS }));
      doc.moveDown();
      const header = () => {
        const y = doc.y;
        doc.fontSize(9).fillColor('#000').font('Helvetica-Bold');
        columns.forEach((c, i) => doc.text(labelOf(definition, c.field), 36 + i * colWidth, y, { width: colWidth - 6, lineBreak: false, ellipsis: true }));
        doc.font('Helvetica').moveTo(36, y + 13).lineTo(36 + width, y + 13).strokeColor('#999').stroke();
        doc.y = y + 17;
      };
      header();
      for (const record of shown) {
        if (doc.y > doc.page.height - 60) {
          doc.addPage();
          header();
        }
        const y = doc.y;
        doc.fontSize(8).fillColor('#222');
        columns.forEach((c, i) => {
          const value = getPath(record, c.field);
          const text = c.type === 'boolean' ? (value ? messages.registers.yes : messages.registers.no) : c.type === 'datetime' ? localTime(value, 180) : cellText(value).replace(/^'/, '');
          doc.text(text, 36 + i * colWidth, y, { width: colWidth - 6, height: 11, lineBreak: false, ellipsis: true });
        });
        doc.y = y + 13;
      }
      doc.end();
      await done;
      return { body: Buffer.concat(chunks), fileName: `${name}.pdf` };
    },

    /**
     * POST /{collection}/fileToMail: the register's records created in the period, as CSV or
     * JSON, e-mailed to the recipient. Validation answers at once; the file goes out after.
     */
    async fileToMail(caller: Caller, name: string, query: ParsedListQuery, input: MailExportInput): Promise<void> {
      const definition = registers.definition(name);
      const checked = checkMailExport(caller, input);
      const period: Filter[] = [
        { field: 'lifeControl.createdAt', op: '>=', value: checked.period.from },
        { field: 'lifeControl.createdAt', op: '<=', value: checked.period.to },
      ];
      const filter: Filter = { and: [...(query.filter ? [query.filter] : []), ...period] };
      // Access and filters are checked now (a 4xx answers the request); the mail follows.
      await registers.count(caller, name, filter);
      const fileName = String(input.query.fileName ?? name).replace(/[^\w.-]+/g, '_').slice(0, 80) || name;
      void (async () => {
        const records = await collect(caller, name, { ...query, filter });
        const body = checked.type === 'json' ? Buffer.from(JSON.stringify(records, null, 2), 'utf8') : csvOf(definition, records);
        await send(caller, input, checked, `${fileName}.${checked.type}`, body, definition.list.label, records.length);
      })().catch((err) => deps.logger.error({ err, register: name }, 'registers.export_mail_failed'));
    },

    /** POST /{collection}/extractSubCollection: agents' status history in the period (seed 000 §2). */
    async extractSubCollection(caller: Caller, name: string, query: ParsedListQuery, input: MailExportInput): Promise<void> {
      const definition = registers.definition(name);
      const sub = String(input.query.subCollection ?? input.body.subCollection ?? '');
      const checked = checkMailExport(caller, input);
      if (!definition.list.subCollections.includes(sub) || sub !== 'status') {
        throw badRequest('sub_collection_unknown', format(messages.registers.exportNoSubCollection, { name: sub || '-' }));
      }
      await registers.count(caller, name, query.filter);
      const fileName = String(input.query.fileName ?? `${name}-${sub}`).replace(/[^\w.-]+/g, '_').slice(0, 80) || `${name}-${sub}`;
      void (async () => {
        const owners = await collect(caller, name, query);
        const byId = new Map(owners.map((r) => [r.id, r]));
        const statuses = await deps.lookups.statuses(caller.tenant.id, owners.map((r) => r.id), checked.period.from, checked.period.to);
        const rows = statuses.map((s) => ({
          agentId: s.userId,
          displayName: String(byId.get(s.userId)?.displayName ?? ''),
          email: String(byId.get(s.userId)?.email ?? ''),
          status: s.status,
          createdAt: checked.offset === 0 ? s.createdAt : localTime(s.createdAt, checked.offset),
        }));
        const body =
          checked.type === 'json'
            ? Buffer.from(JSON.stringify(rows, null, 2), 'utf8')
            : Buffer.from('\ufeff' + stringify([['agentId', 'displayName', 'email', 'status', 'createdAt'], ...rows.map((r) => [r.agentId, cellText(r.displayName), cellText(r.email), cellText(r.status), r.createdAt])], { delimiter: CSV_DELIMITER }), 'utf8');
        await send(caller, input, checked, `${fileName}.${checked.type}`, body, `${definition.list.label} - ${sub}`, rows.length);
      })().catch((err) => deps.logger.error({ err, register: name }, 'registers.export_mail_failed'));
    },
  };

  async function send(caller: Caller, input: MailExportInput, checked: ReturnType<typeof checkMailExport>, fileName: string, body: Buffer, label: string, rows: number) {
    const subject = typeof input.body.subject === 'string' && input.body.subject.trim() ? input.body.subject.trim().slice(0, 200) : format(messages.registers.exportSubject, { name: label });
    const intro = format(messages.registers.exportBody, { rows, period: checked.period.label });
    const message = typeof input.body.message === 'string' && input.body.message.trim() ? `${input.body.message.trim().slice(0, 4000)}\n\n${intro}` : intro;
    await deps.mailer.send({
      to: checked.recipient,
      ...(checked.bcc && { bcc: checked.bcc }),
      subject,
      text: message,
      attachments: [{ filename: fileName, content: body, contentType: fileName.endsWith('.json') ? 'application/json' : 'text/csv' }],
    });
    deps.logger.info({ tenantId: caller.tenant.id, fileName, rows }, 'registers.export_mailed');
  }
}

export type ExportService = ReturnType<typeof createExportService>;
