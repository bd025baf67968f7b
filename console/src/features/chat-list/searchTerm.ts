import { messages, SEARCH_MIN_LENGTH } from '@atendimento/schemas';

export interface SearchTerm {
  /** What is sent: + / ( ) stripped; spaces removed from numeric terms. */
  text: string;
  numeric: boolean;
  /** Validation message, or null when the term may be searched (empty is allowed). */
  error: string | null;
}

/**
 * Search box rules of seed 001 §5: + / ( ) are stripped, a purely numeric term ignores
 * spaces (room number or the last 8 digits of the chat id), at least 3 letters otherwise
 * 'Favor informar pelo menos 3 letras'; empty is allowed.
 */
export function normalizeSearch(raw: string): SearchTerm {
  const stripped = raw.replace(/[+/()]/g, '').trim();
  const numeric = stripped !== '' && /^[\d\s-]+$/.test(stripped);
  const text = numeric ? stripped.replace(/[\s-]/g, '') : stripped;
  if (text === '') return { text: '', numeric: false, error: null };
  if (!numeric && text.length < SEARCH_MIN_LENGTH) return { text, numeric, error: messages.validation.search3 };
  return { text, numeric, error: null };
}
