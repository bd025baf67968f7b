import busboy from 'busboy';
import { UPLOAD_LIMITS, messages as texts, type UploadKind } from '@atendimento/schemas';
import { AppError, badRequest } from '../../../errors';
import type { BlobStore } from '../../../services/files/blob-store';
import { fitsKind, sniffFile } from '../../../services/chat/file-sniffer';
import type { StoredUpload } from '../../../services/chat/message-service';
import type { AppContext } from '../../access';

/** Room for the multipart boundaries and small fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const KINDS: UploadKind[] = ['image', 'video', 'audio', 'document'];

interface ChatUpload {
  kind: UploadKind;
  fields: Record<string, string>;
  bytes: Buffer;
  fileName: string;
  declaredMime: string;
}

/** The seed's message for a file over its limit (001 §5; video/audio keep the original's wording). */
export function tooLarge(kind: UploadKind | null): AppError {
  const message = kind === 'image' ? texts.chat.uploadImage5 : kind === 'video' || kind === 'audio' ? texts.chat.uploadMedia16 : texts.chat.uploadAny100;
  return new AppError(413, 'payload_too_large', message, { headers: { Connection: 'close' } });
}

export function kindOf(value: unknown): UploadKind | null {
  return typeof value === 'string' && KINDS.includes(value as UploadKind) ? (value as UploadKind) : null;
}

/**
 * Reads one multipart upload as it streams (busboy): a body whose Content-Length already
 * exceeds the limit of `?type=` is refused with 413 before a byte is read; otherwise the file
 * is counted as it arrives and cut at its kind's limit (the `type` field must come before
 * the file part). Memory stays bounded by the limit.
 */
export function readChatUpload(ctx: AppContext, options: { requireKind?: boolean } = {}): Promise<ChatUpload> {
  const queryKind = kindOf(ctx.query.type);
  if (ctx.query.type !== undefined && !queryKind) throw badRequest('file_type_required', texts.chatServer.fileTypeRequired);
  if (!ctx.is('multipart/form-data')) throw badRequest('file_missing', texts.chatServer.fileMissing);
  const ceiling = UPLOAD_LIMITS[queryKind ?? 'document'];
  const length = Number(ctx.get('Content-Length') || 0);
  if (length > ceiling + MULTIPART_OVERHEAD) throw tooLarge(queryKind);

  return new Promise<ChatUpload>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(error);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 20, fieldSize: 16 * 1024, fileSize: ceiling + 1, parts: 30 } });
    } catch {
      throw badRequest('file_missing', texts.chatServer.fileMissing);
    }
    const fields: Record<string, string> = {};
    let file: { bytes: Buffer; fileName: string; declaredMime: string; kind: UploadKind } | null = null;
    let pending: Promise<void> | null = null;

    parser.on('field', (name, value) => {
      if (name.length <= 40) fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const kind = queryKind ?? kindOf(fields.type);
      if (!kind && options.requireKind !== false) {
        stream.resume();
        fail(badRequest('file_type_required', texts.chatServer.fileTypeRequired));
        return;
      }
      const k = kind ?? 'document';
      if (queryKind && fields.type && kindOf(fields.type) !== queryKind) {
        stream.resume();
        fail(badRequest('file_type_required', texts.chatServer.fileTypeRequired));
        return;
      }
      const limit = UPLOAD_LIMITS[k];
      const chunks: Buffer[] = [];
      let size = 0;
      pending = new Promise<void>((done) => {
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            stream.resume();
            fail(tooLarge(k));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('limit', () => fail(tooLarge(k)));
        stream.on('end', () => {
          if (!file && size <= limit) file = { bytes: Buffer.concat(chunks, size), fileName: (info.filename || 'arquivo').slice(0, 200), declaredMime: info.mimeType, kind: k };
          done();
        });
      });
    });
    parser.on('error', () => fail(badRequest('file_missing', texts.chatServer.fileMissing)));
    parser.on('close', () => {
      void Promise.resolve(pending).then(() => {
        if (settled) return;
        if (!file || file.bytes.length === 0) return fail(badRequest('file_missing', texts.chatServer.fileMissing));
        settled = true;
        resolve({ kind: file.kind, fields, bytes: file.bytes, fileName: file.fileName, declaredMime: file.declaredMime });
      });
    });
    ctx.req.on('aborted', () => fail(badRequest('file_missing', texts.chatServer.fileMissing)));
    ctx.req.pipe(parser);
  });
}

/**
 * Stores an upload under a random name after checking its bytes fit the declared kind (an
 * "image" must be a JPEG/PNG/GIF/WebP, whatever its name says); the stored type is the
 * sniffed one, so HTML sent as a "document" is served as text, never rendered.
 */
export async function storeChatUpload(blobs: BlobStore, tenantId: string, upload: ChatUpload): Promise<StoredUpload> {
  const sniffed = sniffFile(upload.bytes, upload.fileName, upload.kind);
  if (!fitsKind(upload.kind, sniffed)) throw new AppError(415, 'file_type_mismatch', texts.chatServer.fileTypeMismatch);
  const stored = await blobs.put(tenantId, upload.bytes, sniffed.ext);
  return { kind: upload.kind, url: stored.url, mimeType: sniffed.mime, size: stored.size, fileName: upload.fileName };
}
