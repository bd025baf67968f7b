import { messages } from '@atendimento/schemas';
import { authedFetch, ApiError } from '../../api/api';
import { showToast } from '../../ui/toast';
import { saveBlob } from '../../ui/save-file';

/** The list's current filter and sort as export query parameters (exports take no page). */
export function exportQuery(filter: Record<string, unknown>, sort: { field: string; order: string }): string {
  const params = new URLSearchParams();
  if (Object.keys(filter).length) params.set('filter', JSON.stringify(filter));
  params.set('sort', JSON.stringify([sort.field, sort.order]));
  return params.toString();
}

async function fileOf(path: string, init: RequestInit = {}): Promise<Blob> {
  const response = await authedFetch(path, init);
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, body, messages.table.exportFailed);
  }
  return response.blob();
}

/** GET an export (CSV, xlsx, CSV template) and save it; failures toast the server's message. */
export async function download(path: string, fileName: string): Promise<void> {
  try {
    saveBlob(await fileOf(path), fileName);
  } catch (error) {
    showToast(error instanceof ApiError ? error.message : messages.table.exportFailed, 'error');
  }
}

/** POST /{collection}/getDataReport: the list as a PDF, as an object URL for the preview. */
export async function reportUrl(collection: string, query: string): Promise<string | null> {
  try {
    const blob = await fileOf(`/api/${collection}/getDataReport?${query}`, { method: 'POST' });
    return URL.createObjectURL(blob);
  } catch (error) {
    showToast(error instanceof ApiError ? error.message : messages.table.exportFailed, 'error');
    return null;
  }
}
