import { messages as texts } from '@atendimento/schemas';
import { badRequest } from '../../errors';

/** Keyset cursors ({ at, id }) for room lists and message pages; made by schemas' encodeCursor (the console makes them too). */
export { encodeCursor, roomCursor } from '@atendimento/schemas';

/** Decodes a cursor from a query string; 400 when it was not made by encodeCursor. */
export function decodeCursor(value: unknown): { at: string; id: string } | null {
  if (value === undefined || value === null || value === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && parsed[0].length <= 40 && parsed[1].length <= 64) {
      return { at: parsed[0], id: parsed[1] };
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('cursor_invalid', texts.chatServer.cursorInvalid);
}
