import { messages as seedTexts, UPLOAD_LIMITS, type UploadKind } from '@atendimento/schemas';

/** Which preview a file goes to (seed 001 §5 "Files"): photos and videos, documents, audio. */
export type PreviewKind = 'media' | 'document' | 'audio';

/** The upload type the server expects for a file, from its MIME type. */
export function uploadKindOf(file: Pick<File, 'type'>): UploadKind {
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'document';
}

export function previewKindOf(file: Pick<File, 'type'>): PreviewKind {
  const kind = uploadKindOf(file);
  return kind === 'image' || kind === 'video' ? 'media' : kind === 'audio' ? 'audio' : 'document';
}

/**
 * The seed's message for a file over its limit, else null: image 5 MB ('Upload máximo de
 * imagem: 5MB'), video or audio 16 MB (the seed's text also says 'imagem'), any file 100 MB.
 * The server refuses the same sizes with 413; checking here saves the upload.
 */
export function uploadLimitError(file: Pick<File, 'type' | 'size'>, kind: UploadKind = uploadKindOf(file)): string | null {
  if (file.size > UPLOAD_LIMITS.document) return seedTexts.chat.uploadAny100;
  if (kind === 'image' && file.size > UPLOAD_LIMITS.image) return seedTexts.chat.uploadImage5;
  if ((kind === 'video' || kind === 'audio') && file.size > UPLOAD_LIMITS.video) return seedTexts.chat.uploadMedia16;
  return null;
}

/** Accept attributes of the attach menu's pickers. */
export const PICKER_ACCEPT: Record<PreviewKind, string> = { media: 'image/*,video/*', document: '*/*', audio: 'audio/*' };
