import type { Campaign, CampaignCounters, CampaignMessage } from '@atendimento/schemas/campaigns';
import type { LiveSource } from '@atendimento/console';
import { apiRequest } from '../../api/api';
import { sessionLiveSource } from '../../api/realtime';

/** A message row as GET /api/notifications/{id}/messages answers it. */
export type CampaignMessageRow = CampaignMessage & { statusText: string };

/** The upload's preview (POST /api/notifications/preview, or the 422 of a file with rejected rows). */
export interface CampaignPreview {
  validCount: number;
  rejectedCount: number;
  rejected: { line: number; chatId: string; displayName: string; reason: string }[];
  rejectedCsv: string | null;
  sample: { line: number; chatId: string; displayName: string | null; text: string }[];
}

export type { Campaign, CampaignCounters };

/** The seed's date display (000 §9): DD/MM/YYYY - HH:mm:ss. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} - ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Share of the campaign's messages the queue has finished (0–100). */
export function progressOf(c: CampaignCounters): number {
  return c.total ? Math.round((c.done / c.total) * 100) : 0;
}

/** Saves text as a file in the browser (exports, rejected rows). */
export { saveText } from '../../ui/save-file';

/** What the campaign screens need from outside: the API and the live source (stories pass fakes). */
export interface CampaignsBackend {
  request: typeof apiRequest;
  live: LiveSource;
}

export const defaultBackend: CampaignsBackend = { request: apiRequest, live: sessionLiveSource };
