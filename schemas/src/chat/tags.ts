import type { AppConfig } from '../domain';
import type { Room } from './room';

/** A tag as the tags dialog reads it (register 'tags', seed 000 §3 "Tag"). */
export interface TagOption {
  id: string;
  name: string;
  color?: string | null;
  department?: string | null;
  active?: boolean;
}

/** Departments of a chat for tagsPerDepto: its department and its department queues ("depto" + id). */
export function roomDepartments(room: Pick<Room, 'departmentId' | 'queues'>): Set<string> {
  const out = new Set<string>();
  if (room.departmentId) out.add(room.departmentId);
  for (const q of room.queues ?? []) if (q.id.startsWith('depto')) out.add(q.id.slice('depto'.length));
  return out;
}

/**
 * Seed 001 §5 "Tags": with tenant claim tagsPerDepto a tag of a department is offered only on
 * chats of that department's queues; a tag without department is offered everywhere
 * (docs/console-operations.md). The dialog filters with it, the server refuses with it.
 */
export function tagAllowed(config: Pick<AppConfig, 'claims'>, tag: Pick<TagOption, 'department'>, room: Pick<Room, 'departmentId' | 'queues'>): boolean {
  if (!config.claims?.tagsPerDepto || !tag.department) return true;
  return roomDepartments(room).has(tag.department);
}

/** What the dialog offers: active tags with a name, allowed for the chat, matching the search (case-insensitive). */
export function offeredTags<T extends TagOption>(config: Pick<AppConfig, 'claims'>, tags: T[], room: Pick<Room, 'departmentId' | 'queues'>, search = ''): T[] {
  const term = search.trim().toLocaleLowerCase('pt-BR');
  return tags.filter((t) => t.active !== false && t.name?.trim() && tagAllowed(config, t, room) && (!term || t.name.toLocaleLowerCase('pt-BR').includes(term)));
}

/**
 * A tag chip in the tag's own colour (seed 001 §9: a colour counts as dark when
 * 0.299R + 0.587G + 0.114B is below 140, and then takes white text). Null for a tag without a
 * colour or with one that is not '#rrggbb' / '#rrggbbaa' (the chip keeps its neutral look).
 */
export function tagChipColors(color: string | null | undefined): { background: string; color: string } | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/i.exec(color?.trim() ?? '');
  if (!m) return null;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16)) as [number, number, number];
  return { background: `#${m[1]}${m[2]}${m[3]}`, color: 0.299 * r + 0.587 * g + 0.114 * b < 140 ? '#fff' : '#000' };
}

/** The chat's tags as chips: name and colours, in the chat's order (tags and tagsNames run together). */
export function roomTagChips(room: Pick<Room, 'tags' | 'tagsNames'>, colors: Readonly<Record<string, string | null | undefined>> | undefined): { id: string; name: string; colors: ReturnType<typeof tagChipColors> }[] {
  const ids = room.tags ?? [];
  return (room.tagsNames ?? []).map((name, i) => ({ id: ids[i] ?? name, name, colors: tagChipColors(colors?.[ids[i] ?? '']) }));
}
