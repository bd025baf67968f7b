import type { AppConfig } from '../domain';
import { messages } from '../messages';

/** What the closure dialog sends and the server checks (seed 001 §4 "Closing"). */
export interface CloseFields {
  justify: string | null;
  obs: string | null;
  /** DD/MM/YYYY, only with tenant claim hasNextContact. */
  nextContact?: string | null;
}

/** The first rule a closure breaks: the field and the seed's message. */
export interface CloseProblem {
  field: 'closedBy.justify' | 'closedBy.obs' | 'nextContact';
  message: string;
}

/** The closure rules when the tenant configured none (the defaults of app-config.ts). */
export const DEFAULT_CLOSE_RULES: AppConfig['closeJustify'] = { justifies: [], obsRules: [], reportOnly: true, nextMaxDate: 5000 };

const BR_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** DD/MM/YYYY → 'YYYY-MM-DD', or null when it is not a real calendar date. */
function brDateToIso(value: string): string | null {
  const m = BR_DATE.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  if (d.getUTCDate() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1) return null;
  return d.toISOString().slice(0, 10);
}

/** The tenant's time zone (IANA name); Brasília when the configuration names none. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/**
 * The calendar day ('YYYY-MM-DD') of an instant in a time zone: "today" for every rule that
 * speaks of days (closing, business hours, reports), the same on the server and in the browser.
 */
export function calendarDay(at: Date | number, timeZone: string = DEFAULT_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const DAY_MS = 86_400_000;

/**
 * The closure rules (seed 001 §4 "Closing", §5), written once for the dialog and the server:
 * - a justification is required unless `reportOnly`, and only when the configuration lists
 *   justifications to choose from (with none listed the dialog has nothing to choose, so
 *   nothing is required); a given one must be one of the list;
 * - each observation rule's pattern must match (a broken pattern is skipped: a bad
 *   configuration must not block every closure);
 * - a next-contact date (claim hasNextContact) is a real date from `today` to today +
 *   nextMaxDate days, `today` being the tenant's calendar day (`calendarDay`).
 * Returns the first problem, or null.
 */
export function validateClose(config: Pick<AppConfig, 'closeJustify' | 'claims'>, input: CloseFields, today: string): CloseProblem | null {
  const rules = config.closeJustify ?? DEFAULT_CLOSE_RULES;
  const justify = input.justify?.trim() || null;
  const choices = rules.justifies ?? [];
  if (!rules.reportOnly && choices.length > 0 && (!justify || !choices.includes(justify))) {
    return { field: 'closedBy.justify', message: messages.chat.chooseCloseJustify };
  }
  const obs = input.obs?.trim() ?? '';
  for (const rule of rules.obsRules ?? []) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(rule.pattern, 'u');
    } catch {
      continue;
    }
    if (!pattern.test(obs)) return { field: 'closedBy.obs', message: rule.message || messages.chatServer.obsRequired };
  }
  const next = input.nextContact?.trim();
  if (next && config.claims?.hasNextContact) {
    const iso = brDateToIso(next);
    const max = new Date(Date.parse(`${today}T00:00:00Z`) + (rules.nextMaxDate ?? 5000) * DAY_MS).toISOString().slice(0, 10);
    if (!iso || iso < today || iso > max) return { field: 'nextContact', message: messages.chatServer.nextContactInvalid };
  }
  return null;
}
