import { messages } from './messages';

/**
 * Campaigns (seed 000 §3 "Campaign", "Campaign message", "Campaign counters"; docs/campaigns.md):
 * the shared rules the server and the console both apply: the create form's JSON Schema, chat-id
 * normalisation, the per-message status text, the send window and the counters' shape.
 */

/** Columns of the static CSV template (';'-separated, seed 000 §9). `chatId` is required; the rest feed template parameters. */
export const CAMPAIGN_CSV_TEMPLATE = 'chatId;displayName;param1;param2;param3\n5511987650000;Cliente Demo;Pedido 123;5;\n5511987654321;Maria Silva;Pedido 124;3;\n';
export const CAMPAIGN_CSV_SEPARATOR = ';';
/** Rows one upload may hold (the queue takes more, but a file this size is a mistake more often than a campaign). */
export const CAMPAIGN_MAX_ROWS = 100_000;

export interface CampaignTemplateRef {
  name: string;
  language: string;
  /** CSV column for each `{{n}}` of the template body, in order. */
  params?: string[];
}

/** What the upload form sends besides the file (multipart fields; `template` and `file` as JSON). */
export interface CampaignCreateInput {
  name: string;
  channelId: string;
  template: CampaignTemplateRef;
  defaultReply?: string | null;
  tag?: string | null;
  description?: string | null;
  flow?: string | null;
  /** Media header, uploaded first with POST /api/upload. */
  file?: { name: string; mediaUrl: string } | null;
  startDate?: string | null;
  endDate?: string | null;
  startAt?: string | null;
  endAt?: string | null;
  comercialTime?: boolean;
  weekEnd?: boolean;
  /** Create from the valid rows although some were rejected (the user saw the preview). */
  confirmValid?: boolean;
}

const hhmm = { type: ['string', 'null'], pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', errorMessage: messages.validation.timeFormat } as const;
const date = { type: ['string', 'null'], pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', errorMessage: messages.validation.invalidValue } as const;
const text = (max: number) => ({ type: ['string', 'null'], maxLength: max, errorMessage: messages.validation.invalidValue }) as const;

/** The create form's schema (server: ajv on the multipart fields; console: the same object). */
export const campaignCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'channelId', 'template'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120, errorMessage: messages.validation.requiredField },
    channelId: { type: 'string', minLength: 1, maxLength: 64, errorMessage: messages.campaigns.channelInvalid },
    template: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'language'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 512 },
        language: { type: 'string', minLength: 2, maxLength: 15 },
        params: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 100, errorMessage: messages.campaigns.paramMissing } },
      },
      errorMessage: messages.campaigns.templateNotApproved,
    },
    defaultReply: text(4096),
    tag: text(100),
    description: text(1000),
    flow: text(200),
    file: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['name', 'mediaUrl'],
      properties: { name: { type: 'string', maxLength: 255 }, mediaUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^(/api/files/|https://)' } },
      errorMessage: messages.validation.invalidValue,
    },
    startDate: date,
    endDate: date,
    startAt: hhmm,
    endAt: hhmm,
    comercialTime: { type: 'boolean' },
    weekEnd: { type: 'boolean' },
    confirmValid: { type: 'boolean' },
  },
} as const;

/** PATCH /notifications/{id}: the seed sends the whole campaign without its dates; only `paused` is written. */
export const campaignPatchSchema = {
  type: 'object',
  required: ['paused'],
  properties: { paused: { type: 'boolean', errorMessage: messages.validation.invalidValue } },
} as const;

export type CampaignStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface CampaignMessageError {
  title: string;
  titleptBR?: string;
  code?: string | number;
}

/** One row of the campaign's message table (seed 000 §3 "Campaign message"). */
export interface CampaignMessage {
  id: string;
  campaignId: string;
  row: number;
  chatId: string;
  displayName: string | null;
  text: string;
  type: 'template';
  status: { sent?: string; delivered?: string; read?: string; errors?: CampaignMessageError[] } | null;
  proccessed: boolean;
  tag: { name: string } | null;
  answer: string | null;
  interacted: boolean;
  clicked: boolean;
}

export interface CampaignCounters {
  total: number;
  /** Messages the queue has finished (accepted by the provider or failed). */
  done: number;
  sent: number;
  delivered: number;
  read: number;
  interacted: number;
  clicked: number;
  error: number;
}

export interface Campaign {
  id: string;
  name: string;
  channelId: string;
  template: CampaignTemplateRef;
  defaultReply: string | null;
  tag: string | null;
  description: string | null;
  flow: string | null;
  file: { name: string; mediaUrl: string } | null;
  startDate: string | null;
  endDate: string | null;
  startAt: string | null;
  endAt: string | null;
  comercialTime: boolean;
  weekEnd: boolean;
  paused: boolean;
  proccessed: boolean;
  proccessedAt: string | null;
  /** true: created on this screen by a CSV upload; false: an external notification (seed toggle). */
  campaign: boolean;
  lifeControl: { createdAt: string; deletedAt: string | null };
  counters: CampaignCounters;
}

/** Seed 000 §5: campaign chat ids longer than 12 characters lose their fifth character. */
export function normaliseCampaignChatId(chatId: string): string {
  return chatId.length > 12 ? chatId.slice(0, 4) + chatId.slice(5) : chatId;
}

/**
 * A CSV phone → the campaign's chat id, or null when it is not a WhatsApp number. Digits only
 * ('+', spaces, dots, dashes, brackets dropped); 10–11 digits are a Brazilian DDD + number and
 * get the default prefix 55 (seed 000 §9). Brazilian numbers must have a DDD 11–99 and 8
 * digits, or 9 starting with 9 (a mobile); these are then normalised by the seed's rule (the
 * 9 after the DDD goes, as 'Mensagem Ativa' does: docs/whatsapp.md). Other countries: 8–15
 * digits (E.164, with '+' when 10–11 digits long), kept as they are: the fifth character of a foreign number is not a 9th digit.
 */
export function campaignChatId(raw: string): string | null {
  const trimmed = raw.trim();
  if (!/^[+\d\s().-]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  // A leading '+' says the country code is there; otherwise 10–11 digits are DDD + number.
  if (!trimmed.startsWith('+') && (digits.length === 10 || digits.length === 11)) digits = `55${digits}`;
  if (digits.startsWith('55')) {
    const m = /^55([1-9][1-9])(\d{8,9})$/.exec(digits);
    if (!m) return null;
    if (m[2]!.length === 9 && !m[2]!.startsWith('9')) return null;
    return normaliseCampaignChatId(digits);
  }
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/** The message table's status text (seed 000 §4, exact). */
export function campaignStatusText(status: CampaignMessage['status']): string {
  const t = messages.campaigns;
  if (status?.errors?.length) {
    const first = status.errors[0]!;
    return t.statusError + (first.titleptBR || first.title);
  }
  if (status?.read) return t.statusRead;
  if (status?.delivered) return t.statusDelivered;
  if (status?.sent) return t.statusSent;
  return t.statusNotSent;
}

/** `{{n}}` placeholders of a template body, in order of n. */
export function templateParamCount(components: unknown): number {
  const body = Array.isArray(components) ? components.find((c) => (c as { type?: string })?.type === 'BODY') : null;
  const textValue = typeof (body as { text?: unknown })?.text === 'string' ? (body as { text: string }).text : '';
  const found = new Set([...textValue.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])));
  return found.size;
}

/** The template body with its parameters filled in (what the message table and the reply context show). */
export function renderTemplateText(components: unknown, params: string[]): string {
  const body = Array.isArray(components) ? components.find((c) => (c as { type?: string })?.type === 'BODY') : null;
  const textValue = typeof (body as { text?: unknown })?.text === 'string' ? (body as { text: string }).text : '';
  return textValue.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1] ?? '');
}

/** The media kind a template's header asks for, if any (IMAGE, VIDEO, DOCUMENT). */
export function templateHeaderMedia(components: unknown): 'image' | 'video' | 'document' | null {
  const header = Array.isArray(components) ? components.find((c) => (c as { type?: string })?.type === 'HEADER') as { format?: string } | undefined : undefined;
  const format = String(header?.format ?? '').toUpperCase();
  return format === 'IMAGE' ? 'image' : format === 'VIDEO' ? 'video' : format === 'DOCUMENT' ? 'document' : null;
}

/** Commercial time (`comercialTime`): Monday to Friday, 08:00–18:00 in the tenant's time zone. */
export const COMMERCIAL_HOURS = { start: 8 * 60, end: 18 * 60 } as const;

export interface CampaignWindow {
  startDate?: string | null;
  endDate?: string | null;
  startAt?: string | null;
  endAt?: string | null;
  comercialTime?: boolean;
  weekEnd?: boolean;
}

function local(at: number, timeZone: string): { date: string; weekday: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', minute: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
    minute: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

const minutes = (v: string | null | undefined): number | null => {
  const m = v ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(v) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/**
 * Whether a campaign may send at `at` (docs/campaigns.md "Window"), in the tenant's time zone:
 * inside [startDate, endDate] (local dates, inclusive), inside [startAt, endAt) each day (an end
 * before the start runs past midnight), Monday–Friday 08:00–18:00 with `comercialTime`, and not
 * on Saturday or Sunday when `weekEnd` is false. Missing fields do not restrict.
 */
export function campaignWindowOpen(w: CampaignWindow, at: Date | number, timeZone: string): boolean {
  const p = local(+at, timeZone);
  if (w.startDate && p.date < w.startDate) return false;
  if (w.endDate && p.date > w.endDate) return false;
  const weekend = p.weekday === 0 || p.weekday === 6;
  if (w.weekEnd === false && weekend) return false;
  if (w.comercialTime && (weekend || p.minute < COMMERCIAL_HOURS.start || p.minute >= COMMERCIAL_HOURS.end)) return false;
  const start = minutes(w.startAt);
  const end = minutes(w.endAt);
  if (start !== null && end !== null && start !== end) {
    const inside = start < end ? p.minute >= start && p.minute < end : p.minute >= start || p.minute < end;
    if (!inside) return false;
  } else if (start !== null && end === null && p.minute < start) return false;
  else if (end !== null && start === null && p.minute >= end) return false;
  return true;
}

/** The campaign's window has ended for good (past its end date): the queue stops and the rest stays 'Não enviado'. */
export function campaignWindowOver(w: CampaignWindow, at: Date | number, timeZone: string): boolean {
  return Boolean(w.endDate && local(+at, timeZone).date > w.endDate);
}
