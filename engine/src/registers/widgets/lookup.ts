import { api } from '../../api/api';

/** One option of a picker, as GET /api/lookup/{collection} answers it. */
export interface LookupOption {
  id: string;
  label: string;
  active?: boolean;
}

/** Minimum letters before an autocomplete searches (seed 000 §5, 'Digite para buscar (min. 3)'). */
export const AUTOCOMPLETE_MIN = 3;
/** Autocomplete debounce (seed 000 §9: 1000 ms for autocomplete). */
export const AUTOCOMPLETE_DEBOUNCE_MS = 1000;

/** Options of `collection` matching `q`, or the titles of `ids` (chips of a saved record). */
export async function lookup(collection: string, params: { q?: string; ids?: string[]; type?: string }, signal?: AbortSignal): Promise<LookupOption[]> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  if (params.ids) query.set('ids', JSON.stringify(params.ids));
  if (params.type) query.set('type', params.type);
  const body = await api<{ data: LookupOption[] }>(`/api/lookup/${encodeURIComponent(collection)}?${query}`, { notify: false, signal });
  return body.data;
}
