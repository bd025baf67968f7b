import { UPLOAD_LIMITS, type UploadKind } from '@atendimento/schemas';
import type { BlobStore } from '../files/blob-store';
import { sniffFile } from '../chat/file-sniffer';

/** A mail attachment in our blob store (or why it was left out). */
export type StoredMailFile =
  | { stored: true; url: string; mimeType: string; fileName: string; size: number; kind: UploadKind }
  | { stored: false; fileName: string; size: number; kind: UploadKind };

/** The upload kind whose limit a file falls under (seed 001 §5: image 5 MB, video/audio 16 MB, any file 100 MB). */
export function kindOfMime(mime: string): UploadKind {
  if (['image/jpeg', 'image/png', 'image/gif', 'image/webp'].includes(mime)) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/**
 * Stores one attachment under the chat upload limits of its kind, typed by its bytes (the
 * sniffed type, never the sender's claim: HTML arrives as text/plain). Over the limit it is
 * not stored and the message lists it as left out.
 */
export async function storeMailFile(blobs: BlobStore, tenantId: string, fileName: string, bytes: Buffer): Promise<StoredMailFile> {
  const sniffed = sniffFile(bytes, fileName);
  const kind = kindOfMime(sniffed.mime);
  if (bytes.length > UPLOAD_LIMITS[kind]) return { stored: false, fileName, size: bytes.length, kind };
  const blob = await blobs.put(tenantId, bytes, sniffed.ext);
  return { stored: true, url: blob.url, mimeType: sniffed.mime, fileName, size: blob.size, kind };
}
