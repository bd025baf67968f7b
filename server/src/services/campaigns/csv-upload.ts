import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { format, messages } from '@atendimento/schemas';
import { CAMPAIGN_CSV_SEPARATOR, CAMPAIGN_MAX_ROWS, campaignChatId, renderTemplateText } from '@atendimento/schemas/campaigns';
import { badRequest } from '../../errors';

const t = messages.campaigns;

/** A row that passed every check, ready to become a campaign message. */
export interface ValidRow {
  line: number;
  chatId: string;
  displayName: string | null;
  params: string[];
  text: string;
}

export interface RejectedRow {
  line: number;
  cells: string[];
  reason: string;
}

export interface UploadCheck {
  header: string[];
  valid: ValidRow[];
  rejected: RejectedRow[];
}

/** Header names accepted for the phone and name columns (the template's, and the words people type). */
const CHAT_ID_COLUMNS = ['chatid', 'telefone', 'phone', 'numero', 'número', 'celular', 'whatsapp'];
const NAME_COLUMNS = ['displayname', 'nome', 'name'];

/** Same guard as the register exports: a cell starting with = + - @ tab or CR would run as a formula. */
const escapeCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * Reads the campaign CSV (';', header row, seed 000 §9) and checks it row by row before anything
 * is stored (docs/campaigns.md "Upload"): the phone must be a WhatsApp number (normalised to the
 * campaign's chat id), every template parameter's column must be filled, a number may appear
 * once (after normalisation), and a blocked contact is not sent to. Each rejected row keeps its
 * cells and one reason in Portuguese.
 */
export async function checkCampaignCsv(
  bytes: Buffer,
  paramColumns: string[],
  components: unknown[],
  blockedPhones: (phones: string[]) => Promise<Set<string>>,
): Promise<UploadCheck> {
  let rows: string[][];
  try {
    rows = parse(bytes.toString('utf8'), { delimiter: CAMPAIGN_CSV_SEPARATOR, skip_empty_lines: true, bom: true, relax_column_count: true, max_record_size: 100_000, to: CAMPAIGN_MAX_ROWS + 2 }) as string[][];
  } catch {
    throw badRequest('campaign_csv_invalid', t.fileUnreadable);
  }
  const [rawHeader, ...data] = rows;
  const header = (rawHeader ?? []).map((h) => h.trim());
  if (header.length === 0 || data.length === 0) throw badRequest('campaign_csv_empty', t.fileEmpty);
  if (data.length > CAMPAIGN_MAX_ROWS) throw badRequest('campaign_csv_too_large', t.fileTooLarge);
  const lower = header.map((h) => h.toLowerCase());
  const chatIdIndex = lower.findIndex((h) => CHAT_ID_COLUMNS.includes(h));
  if (chatIdIndex < 0) throw badRequest('campaign_csv_no_chat_id', t.chatIdColumn, [{ field: 'file', message: t.chatIdColumn }]);
  const nameIndex = lower.findIndex((h) => NAME_COLUMNS.includes(h));
  const paramIndexes = paramColumns.map((column, i) => {
    const index = header.indexOf(column);
    if (index < 0) {
      const message = format(t.paramColumn, { column, n: i + 1 });
      throw badRequest('campaign_param_column', message, [{ field: `template.params.${i}`, message }]);
    }
    return index;
  });

  const checked: (ValidRow | RejectedRow)[] = [];
  const firstLine = new Map<string, number>();
  data.forEach((cells, i) => {
    const line = i + 2;
    const reject = (reason: string) => checked.push({ line, cells, reason });
    const chatId = campaignChatId(cells[chatIdIndex] ?? '');
    if (!chatId) return reject(t.rejectPhone);
    const params = paramIndexes.map((index) => (cells[index] ?? '').trim());
    const missing = params.findIndex((p) => p === '');
    if (missing >= 0) return reject(format(t.rejectParam, { column: paramColumns[missing]! }));
    const seen = firstLine.get(chatId);
    if (seen !== undefined) return reject(format(t.rejectDuplicate, { line: seen }));
    firstLine.set(chatId, line);
    const displayName = nameIndex >= 0 ? (cells[nameIndex] ?? '').trim().slice(0, 200) || null : null;
    checked.push({ line, chatId, displayName, params, text: renderTemplateText(components, params) });
  });

  // A contact may be stored under the campaign's chat id or with the 9th digit (docs/whatsapp.md).
  const candidates = checked.filter((r): r is ValidRow => 'chatId' in r);
  const withNinth = (id: string) => (/^55\d{10}$/.test(id) && /[6-9]/.test(id[4]!) ? `${id.slice(0, 4)}9${id.slice(4)}` : id);
  const blocked = await blockedPhones([...new Set(candidates.flatMap((r) => [r.chatId, withNinth(r.chatId)]))]);
  const valid: ValidRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const row of checked) {
    if (!('chatId' in row)) rejected.push(row);
    else if (blocked.has(row.chatId) || blocked.has(withNinth(row.chatId))) rejected.push({ line: row.line, cells: data[row.line - 2]!, reason: t.rejectBlocked });
    else valid.push(row);
  }
  rejected.sort((a, b) => a.line - b.line);
  return { header, valid, rejected };
}

/** The rejected rows as a ';' CSV: the file's own columns, then the line and the reason. */
export function rejectedCsv(check: Pick<UploadCheck, 'header' | 'rejected'>): string {
  const records = check.rejected.map((r) => [...check.header.map((_, i) => escapeCell(r.cells[i] ?? '')), String(r.line), r.reason]);
  return stringify([[...check.header, 'linha', t.rejectedHeader], ...records], { delimiter: CAMPAIGN_CSV_SEPARATOR });
}
