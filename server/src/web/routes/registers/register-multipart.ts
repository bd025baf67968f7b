import Busboy from 'busboy';
import { messages } from '@atendimento/schemas';
import { AppError, badRequest } from '../../../errors';
import type { AppContext } from '../../access';
import type { BlobStore } from '../../../services/files/blob-store';

interface MultipartFile {
  fieldName: string;
  fileName: string;
  /** The whole file, or with `tempPath` only its first bytes (the rest is on disk). */
  bytes: Buffer;
  /** Set when the file was streamed to a temp file of the blob store (`disk` option). */
  tempPath?: string;
  size: number;
}

interface MultipartOptions<T> {
  /** Hard ceiling for the whole request, checked on Content-Length before reading anything. */
  maxBytes: number;
  /** Bytes to look at before deciding what the file is. */
  sniffBytes: number;
  /**
   * Decides from the first bytes whether the file is acceptable and how big it may get; throw
   * an AppError to refuse. Called once per file with at least `sniffBytes` (or the whole file).
   */
  accept(head: Buffer, fileName: string): T & { maxBytes: number; tooLarge: string };
  /**
   * Stream the file past its first `sniffBytes` to a temp file of this store instead of memory
   * (8 concurrent 95 MB uploads took RSS to 1.7 GB). The caller adopts or discards it.
   */
  disk?: BlobStore;
}

/** Closes and removes a temp file (its open may still be pending: wait for close first). */
export async function discardTemp(out: { path: string; stream: import('node:fs').WriteStream } | null, disk: BlobStore | undefined): Promise<void> {
  if (!out || !disk) return;
  if (!out.stream.closed) {
    await new Promise<void>((resolve) => {
      out.stream.once('close', () => resolve());
      out.stream.destroy();
    });
  }
  await disk.discard(out.path).catch(() => undefined);
}

const interrupted = () => new AppError(400, 'upload_interrupted', messages.errors.uploadInterrupted);
const tooLarge = (message: string) => new AppError(413, 'payload_too_large', message);

/**
 * Reads one multipart upload while it streams (busboy): the size limit is enforced as bytes
 * arrive, so an oversized or unwanted file is refused with 413/415 without buffering it all;
 * the connection is then closed instead of draining the rest.
 */
export function readMultipart<T>(ctx: AppContext, options: MultipartOptions<T>): Promise<{ fields: Record<string, string>; file: (MultipartFile & { info: T }) | null }> {
  const type = ctx.get('Content-Type');
  if (!/^multipart\/form-data/i.test(type)) return Promise.reject(badRequest('file_required', messages.validation.importFileRequired));
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > options.maxBytes + 1024 * 1024) {
    ctx.set('Connection', 'close');
    return Promise.reject(tooLarge(messages.chat.uploadAny100));
  }
  try {
    // Counted in the process's upload budget (web/upload-budget.ts) like every other upload.
    ctx.state.uploads.hold(ctx, declared > 0 ? declared : options.maxBytes + 1024 * 1024);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const fields: Record<string, string> = {};
    let file: (MultipartFile & { info: T }) | null = null;
    let pending: Promise<void> = Promise.resolve();
    let busboy: Busboy.Busboy;
    let out: ReturnType<BlobStore['temp']> | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(busboy);
      // Stop reading the body: the answer goes out now and the socket closes after it.
      ctx.set('Connection', 'close');
      ctx.req.pause();
      // A refused upload leaves no temp file behind: answered once it is gone.
      void discardTemp(out, options.disk).then(() => reject(error));
    };
    try {
      busboy = Busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: options.maxBytes + 1, fields: 50, fieldSize: 100 * 1024, parts: 60 } });
    } catch {
      reject(badRequest('file_required', messages.validation.importFileRequired));
      return;
    }
    busboy.on('field', (name, value) => {
      if (!settled) fields[name] = value;
    });
    busboy.on('file', (fieldName, stream, info) => {
      if (file || settled) {
        stream.resume();
        return;
      }
      let chunks: Buffer[] = [];
      let head: Buffer | null = null;
      let size = 0;
      let accepted: (T & { maxBytes: number; tooLarge: string }) | null = null;
      const decide = () => {
        if (accepted) return true;
        try {
          accepted = options.accept(Buffer.concat(chunks), info.filename ?? '');
          return true;
        } catch (error) {
          fail(error);
          stream.resume();
          return false;
        }
      };
      pending = new Promise<void>((done) => {
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (out) {
            // Backpressure: the request pauses while the disk catches up.
            if (!out.stream.write(chunk)) {
              stream.pause();
              out.stream.once('drain', () => stream.resume());
            }
          } else chunks.push(chunk);
          if (!accepted && size >= options.sniffBytes && !decide()) return;
          if (accepted && size > accepted.maxBytes) {
            fail(tooLarge(accepted.tooLarge));
            stream.resume();
            return;
          }
          if (options.disk && accepted && !out) {
            head = Buffer.concat(chunks);
            chunks = [];
            out = options.disk.temp();
            out.stream.on('error', (err) => fail(err));
            out.stream.write(head);
          }
        });
        stream.on('limit', () => fail(tooLarge(accepted?.tooLarge ?? messages.chat.uploadAny100)));
        // A body cut before its closing boundary errors the file stream too (unheard, it stopped the process).
        stream.on('error', () => {
          fail(interrupted());
          done();
        });
        stream.on('end', () => {
          if (!settled && decide()) {
            if (accepted && size > accepted.maxBytes) fail(tooLarge(accepted.tooLarge));
            else if (out) {
              const temp = out;
              return void temp.stream.end(() => {
                if (!settled) file = { fieldName, fileName: info.filename ?? '', bytes: head!, tempPath: temp.path, size, info: accepted as unknown as T };
                done();
              });
            } else file = { fieldName, fileName: info.filename ?? '', bytes: Buffer.concat(chunks), size, info: accepted as unknown as T };
          }
          done();
        });
      });
    });
    busboy.on('error', () => fail(interrupted()));
    ctx.req.on('aborted', () => fail(interrupted()));
    ctx.req.on('error', () => fail(interrupted()));
    busboy.on('close', () => {
      void pending.then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, file });
      });
    });
    ctx.req.pipe(busboy);
  });
}
