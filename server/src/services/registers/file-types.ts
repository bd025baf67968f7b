import { messages } from '@atendimento/schemas';

/** What an uploaded file is, judged by its first bytes (never by the name or the browser's type). */
export interface DetectedFile {
  ext: 'png' | 'jpg' | 'ogg' | 'pdf' | 'doc' | 'docx' | 'xlsx' | 'odt' | 'ods' | 'csv';
  mimeType: string;
  kind: 'image' | 'audio' | 'document';
  /** Most bytes allowed for this kind (seed 001 §5 upload limits). */
  maxBytes: number;
  /** pt-BR message when the limit is passed. */
  tooLarge: string;
}

export const MB = 1024 * 1024;
/** Upper bound of any upload (seed 001 §5: 'Upload máximo suportado: 100MB'). */
export const UPLOAD_MAX_BYTES = 100 * MB;
/** Bytes needed to recognise every allowed type (zip entries of OOXML are near the start). */
export const SNIFF_BYTES = 64 * 1024;

const image = (ext: 'png' | 'jpg', mimeType: string): DetectedFile => ({ ext, mimeType, kind: 'image', maxBytes: 5 * MB, tooLarge: messages.chat.uploadImage5 });
const doc = (ext: DetectedFile['ext'], mimeType: string): DetectedFile => ({ ext, mimeType, kind: 'document', maxBytes: UPLOAD_MAX_BYTES, tooLarge: messages.chat.uploadAny100 });

const starts = (bytes: Buffer, magic: number[] | string, offset = 0) =>
  typeof magic === 'string' ? bytes.subarray(offset, offset + magic.length).toString('latin1') === magic : magic.every((b, i) => bytes[offset + i] === b);

function extensionOf(name: string): string {
  const match = /\.([a-z0-9]{1,5})$/i.exec(name.trim());
  return match ? match[1]!.toLowerCase() : '';
}

function looksLikeText(head: Buffer): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  // Valid UTF-8 (or plain ASCII): decoding must not produce replacement characters, except a
  // multi-byte sequence cut at the end of the sniffed bytes.
  const text = head.toString('utf8');
  const bad = text.slice(0, -3).includes('\ufffd');
  return !bad;
}

/**
 * The upload field's types (seed 000 §5: png, jpg, jpeg, ogg, pdf, doc, docx, xlsx, csv, odt,
 * ods), recognised by content; the file name's extension must agree with the content, so a
 * renamed executable or HTML page is refused. Returns null for anything else.
 */
export function detectFileType(head: Buffer, fileName: string): DetectedFile | null {
  const ext = extensionOf(fileName);
  if (starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return ext === 'png' ? image('png', 'image/png') : null;
  if (starts(head, [0xff, 0xd8, 0xff])) return ext === 'jpg' || ext === 'jpeg' ? image('jpg', 'image/jpeg') : null;
  if (starts(head, 'OggS')) return ext === 'ogg' ? { ext: 'ogg', mimeType: 'audio/ogg', kind: 'audio', maxBytes: 16 * MB, tooLarge: messages.chat.uploadMedia16 } : null;
  if (starts(head, '%PDF-')) return ext === 'pdf' ? doc('pdf', 'application/pdf') : null;
  if (starts(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return ext === 'doc' ? doc('doc', 'application/msword') : null;
  if (starts(head, [0x50, 0x4b, 0x03, 0x04])) {
    const latin = head.toString('latin1');
    // OpenDocument: the first entry is the uncompressed "mimetype" file (ODF 1.2 §3.3).
    if (starts(head, 'mimetype', 30)) {
      if (latin.startsWith('application/vnd.oasis.opendocument.text', 38)) return ext === 'odt' ? doc('odt', 'application/vnd.oasis.opendocument.text') : null;
      if (latin.startsWith('application/vnd.oasis.opendocument.spreadsheet', 38)) return ext === 'ods' ? doc('ods', 'application/vnd.oasis.opendocument.spreadsheet') : null;
      return null;
    }
    if (ext === 'docx' && latin.includes('word/')) return doc('docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    if (ext === 'xlsx' && latin.includes('xl/')) return doc('xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return null;
  }
  if (ext === 'csv' && looksLikeText(head)) return doc('csv', 'text/csv');
  return null;
}
