import type { Room } from './room';

/**
 * The keyset cursor of room lists and message pages: base64url of `[at, id]` (the row's sort
 * date and its id; ties go by id). Shared so the console can continue a list right after a room
 * it already holds — the first REST page after the live window starts at its last room instead
 * of re-reading the window to learn the server's cursor. The server decodes (and rejects) it.
 */
export function encodeCursor(at: string, id: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([at, id]));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor right after a room in a tab's list: the lists' order is lastMessageAt, ties by id. */
export function roomCursor(room: Pick<Room, 'lastMessageAt' | 'id'>): string {
  return encodeCursor(room.lastMessageAt, room.id);
}
