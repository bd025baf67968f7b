import type { UploadKind } from '@atendimento/schemas';

/** What the bytes are, whatever the client said (magic numbers, never the file name alone). */
interface SniffedType {
  mime: string;
  ext: string;
}

const ascii = (bytes: Buffer, offset: number, text: string) => bytes.length >= offset + text.length && bytes.toString('latin1', offset, offset + text.length) === text;

const OFFICE_ZIP: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};
const OFFICE_OLE: Record<string, string> = { doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint' };

function extOf(fileName: string): string {
  const m = /\.([a-z0-9]{1,8})$/i.exec(fileName);
  return m ? m[1]!.toLowerCase() : '';
}

function looksLikeText(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? head.subarray(0, head.length - 4) : head);
    return true;
  } catch {
    return false;
  }
}

/** Detects the type from the first bytes; the file name only refines zip/OLE/text families. */
export function sniffFile(bytes: Buffer, fileName: string, kindHint: UploadKind | null = null): SniffedType {
  const b = bytes;
  const ext = extOf(fileName);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { mime: 'image/png', ext: 'png' };
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return { mime: 'image/gif', ext: 'gif' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return { mime: 'image/webp', ext: 'webp' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return { mime: 'audio/wav', ext: 'wav' };
  if (ascii(b, 0, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf' };
  if (ascii(b, 4, 'ftyp')) {
    const brand = b.toString('latin1', 8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return { mime: 'audio/mp4', ext: 'm4a' };
    if (brand === 'qt  ') return { mime: 'video/quicktime', ext: 'mov' };
    if (brand.startsWith('3gp')) return { mime: kindHint === 'audio' ? 'audio/3gpp' : 'video/3gpp', ext: '3gp' };
    return kindHint === 'audio' ? { mime: 'audio/mp4', ext: 'm4a' } : { mime: 'video/mp4', ext: 'mp4' };
  }
  if (ascii(b, 0, 'OggS')) return { mime: 'audio/ogg', ext: 'ogg' };
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return kindHint === 'audio' ? { mime: 'audio/webm', ext: 'webm' } : { mime: 'video/webm', ext: 'webm' };
  if (ascii(b, 0, 'ID3') || (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)) return { mime: 'audio/mpeg', ext: 'mp3' };
  if (ascii(b, 0, 'fLaC')) return { mime: 'audio/flac', ext: 'flac' };
  if (ascii(b, 0, '#!AMR')) return { mime: 'audio/amr', ext: 'amr' };
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) {
    return OFFICE_ZIP[ext] ? { mime: OFFICE_ZIP[ext]!, ext } : { mime: 'application/zip', ext: 'zip' };
  }
  if (b.length >= 4 && b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0) {
    return OFFICE_OLE[ext] ? { mime: OFFICE_OLE[ext]!, ext } : { mime: 'application/octet-stream', ext: 'bin' };
  }
  if (b.length > 0 && looksLikeText(b)) return ext === 'csv' ? { mime: 'text/csv', ext: 'csv' } : { mime: 'text/plain', ext: 'txt' };
  return { mime: 'application/octet-stream', ext: 'bin' };
}

/** Whether sniffed bytes fit the declared upload kind (documents take anything). */
export function fitsKind(kind: UploadKind, type: SniffedType): boolean {
  if (kind === 'document') return true;
  if (kind === 'image') return ['image/jpeg', 'image/png', 'image/gif', 'image/webp'].includes(type.mime);
  if (kind === 'video') return type.mime.startsWith('video/');
  return type.mime.startsWith('audio/');
}
