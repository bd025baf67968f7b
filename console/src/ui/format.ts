import { loadPhoneFormats, phoneLibrary } from './phoneFormats';

/** Cuts a text to `max` characters with an ellipsis (links at 80, file names at 15). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * A phone as its country writes it. Brazilian numbers (+55) keep the mask of seed 001 §9:
 * "+## (##) ####.####", "+## (##) #####.####" for ids longer than 12 digits, "+## ### ### ####"
 * for 0800 numbers (+55800); other countries use libphonenumber-js's international format
 * (+972 50 123 4567, +1 415 555 2671), loaded on the first foreign number (phoneFormats.ts):
 * until then such a number shows as +digits, and components that call usePhoneFormats() render
 * again when the formats arrive. Non-numeric ids (e-mail) pass through.
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  if (!digits || /[a-z@]/i.test(value)) return value;
  if (digits.startsWith('55800')) return applyMask(digits, '+## ### ### ####');
  const brazil = digits.startsWith('55') && digits.length >= 12 && digits.length <= 13;
  if (!brazil && digits.length >= 8) {
    const lib = phoneLibrary();
    if (!lib) {
      void loadPhoneFormats();
      return `+${digits}`;
    }
    const parsed = lib.parsePhoneNumberFromString(`+${digits}`);
    if (parsed?.country && parsed.country !== 'BR') return parsed.formatInternational();
  }
  if (digits.length > 12) return applyMask(digits, '+## (##) #####.####');
  if (digits.length >= 10) return applyMask(digits, '+## (##) ####.####');
  return value;
}

function applyMask(digits: string, mask: string): string {
  let i = 0;
  let out = '';
  for (const ch of mask) {
    if (i >= digits.length) break;
    if (ch === '#') out += digits[i++];
    else out += ch;
  }
  return out + digits.slice(i);
}

const rtf = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "há 5 minutos", "ontem"... in pt-BR; under a minute reads "agora". */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return 'agora';
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const time = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });

/** dd/mm/yyyy hh:mm (seed: dates pt-BR). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateTime.format(d);
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : time.format(d);
}

const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit' });
const dayMonthYear = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });

/**
 * A message's time as a chat shows it: "14:05" today, "23/11 14:05" earlier this year,
 * "23/11/2025 14:05" before (a bare time on yesterday's message reads as today's).
 */
export function formatMessageTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) return time.format(d);
  const date = d.getFullYear() === today.getFullYear() ? dayMonth.format(d) : dayMonthYear.format(d);
  return `${date} ${time.format(d)}`;
}

/** Seconds as mm:ss (audio recorder timer). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Byte sizes for upload errors and previews. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Contexts with "followup" or an underscore are internal and hidden (seed 001 §3). */
export function visibleContexts(contexts: string[] | null | undefined): string[] {
  return (contexts ?? []).filter((c) => !/followup/i.test(c) && !c.includes('_'));
}

