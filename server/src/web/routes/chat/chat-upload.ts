import busboy from 'busboy';
import { UPLOAD_LIMITS, messages as texts, type UploadKind } from '@atendimento/schemas';
import { AppError, badRequest } from '../../../errors';
import type { BlobStore } from '../../../services/files/blob-store';
import { fitsKind, sniffFile } from '../../../services/chat/file-sniffer';
import type { StoredUpload } from '../../../services/chat/message-service';
import type { AppContext } from '../../access';
import { discardTemp } from '../registers/register-multipart';

/** Room for the multipart boundaries and small fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const KINDS: UploadKind[] = ['image', 'video', 'audio', 'document'];

interface ChatUpload {
  kind: UploadKind;
  fields: Record<string, string>;
  /** The first bytes, for sniffing; the whole file is on disk at `tempPath`. */
  head: Buffer;
  tempPath: string;
  size: number;
  fileName: string;
  declaredMime: string;
}

/** Bytes kept in memory to tell what the file is. */
const HEAD_BYTES = 64 * 1024;

/** The seed's message for a file over its limit (001 §5; video/audio keep the original's wording). */
export function tooLarge(kind: UploadKind | null): AppError {
  const message = kind === 'image' ? texts.chat.uploadImage5 : kind === 'video' || kind === 'audio' ? texts.chat.uploadMedia16 : texts.chat.uploadAny100;
  return new AppError(413, 'payload_too_large', message, { headers: { Connection: 'close' } });
}

/** A multipart body that ended early or broke mid-way. */
export const interrupted = (): AppError => new AppError(400, 'upload_interrupted', texts.errors.uploadInterrupted, { headers: { Connection: 'close' } });

export function kindOf(value: unknown): UploadKind | null {
  return typeof value === 'string' && KINDS.includes(value as UploadKind) ? (value as UploadKind) : null;
}

/**
 * Reads one multipart upload as it streams (busboy): a body whose Content-Length already
 * exceeds the limit of `?type=` is refused with 413 before a byte is read; otherwise the file
 * is counted as it arrives and cut at its kind's limit (the `type` field must come before
 * the file part). Memory stays bounded by the limit.
 */
export function readChatUpload(ctx: AppContext, blobs: BlobStore, options: { requireKind?: boolean } = {}): Promise<ChatUpload> {
  const queryKind = kindOf(ctx.query.type);
  if (ctx.query.type !== undefined && !queryKind) throw badRequest('file_type_required', texts.chatServer.fileTypeRequired);
  if (!ctx.is('multipart/form-data')) throw badRequest('file_missing', texts.chatServer.fileMissing);
  const ceiling = UPLOAD_LIMITS[queryKind ?? 'document'];
  const length = Number(ctx.get('Content-Length') || 0);
  if (length > ceiling + MULTIPART_OVERHEAD) throw tooLarge(queryKind);
  // The process's upload budget (web/upload-budget.ts): files stream to disk, so it bounds disk and sockets.
  ctx.state.uploads.hold(ctx, length > 0 ? length : ceiling + MULTIPART_OVERHEAD);

  return new Promise<ChatUpload>((resolve, reject) => {
    let settled = false;
    let temp: ReturnType<BlobStore['temp']> | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      // A refused upload leaves no temp file behind: answered once it is gone.
      void discardTemp(temp, blobs).then(() => reject(error));
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 20, fieldSize: 16 * 1024, fileSize: ceiling + 1, parts: 30 } });
    } catch {
      throw badRequest('file_missing', texts.chatServer.fileMissing);
    }
    const fields: Record<string, string> = {};
    let file: { head: Buffer; size: number; fileName: string; declaredMime: string; kind: UploadKind } | null = null;
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
      if (settled || temp) {
        stream.resume();
        return;
      }
      const limit = UPLOAD_LIMITS[k];
      const head: Buffer[] = [];
      let headSize = 0;
      let size = 0;
      const out = blobs.temp();
      temp = out;
      pending = new Promise<void>((done) => {
        out.stream.on('error', (err) => {
          fail(err);
          done();
        });
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > limit) {
            stream.resume();
            fail(tooLarge(k));
            return;
          }
          if (headSize < HEAD_BYTES) {
            head.push(chunk);
            headSize += chunk.length;
          }
          // Backpressure: the request is paused while the disk catches up.
          if (!out.stream.write(chunk)) {
            stream.pause();
            out.stream.once('drain', () => stream.resume());
          }
        });
        stream.on('limit', () => fail(tooLarge(k)));
        // A body cut before its closing boundary errors the file stream too (unheard, it stopped the process).
        stream.on('error', () => {
          fail(interrupted());
          done();
        });
        stream.on('end', () => {
          if (settled) return done();
          out.stream.end(() => {
            if (!file && size <= limit) file = { head: Buffer.concat(head).subarray(0, HEAD_BYTES), size, fileName: (info.filename || 'arquivo').slice(0, 200), declaredMime: info.mimeType, kind: k };
            done();
          });
        });
      });
    });
    parser.on('error', () => fail(interrupted()));
    parser.on('close', () => {
      void Promise.resolve(pending).then(() => {
        if (settled) return;
        if (!file || file.size === 0) return fail(badRequest('file_missing', texts.chatServer.fileMissing));
        settled = true;
        resolve({ kind: file.kind, fields, head: file.head, tempPath: temp!.path, size: file.size, fileName: file.fileName, declaredMime: file.declaredMime });
      });
    });
    ctx.req.on('aborted', () => fail(interrupted()));
    ctx.req.on('error', () => fail(interrupted()));
    ctx.req.pipe(parser);
  });
}

/**
 * Stores an upload under a random name after checking its bytes fit the declared kind (an
 * "image" must be a JPEG/PNG/GIF/WebP, whatever its name says); the stored type is the
 * sniffed one, so HTML sent as a "document" is served as text, never rendered.
 */
export async function storeChatUpload(blobs: BlobStore, tenantId: string, upload: ChatUpload): Promise<StoredUpload> {
  const sniffed = sniffFile(upload.head, upload.fileName, upload.kind);
  if (!fitsKind(upload.kind, sniffed)) {
    await blobs.discard(upload.tempPath);
    throw new AppError(415, 'file_type_mismatch', texts.chatServer.fileTypeMismatch);
  }
  const stored = await blobs.adopt(tenantId, upload.tempPath, sniffed.ext, upload.size);
  return { kind: upload.kind, url: stored.url, mimeType: sniffed.mime, size: stored.size, fileName: upload.fileName };
}
