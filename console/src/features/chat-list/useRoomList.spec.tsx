import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { MAX_ROOMS_LIMIT, encodeCursor, type Room } from '@atendimento/schemas';
import { StoryConsole, recordingApi, type RecordedCall } from '../../fixtures/StoryConsole';
import { staticLive } from '../../fixtures/staticLive';
import type { LiveRecord } from '../../realtime/liveSource';
import { room } from '../../fixtures/chatFixtures';
import { useRoomList } from './useRoomList';

// 650 rooms of 'Fila', newest first (room(n)'s last message is n×7 minutes old).
const all: Room[] = Array.from({ length: 650 }, (_, i) => room(i + 1));
const sorted = (order: unknown) => (order === 'asc' ? [...all].reverse() : all);

/** GET /api/rooms as the server pages it: keyset after the cursor's room, `limit` rows, `next` when full. */
function roomsPage(call: RecordedCall, total: number) {
  const params = new URLSearchParams(call.path.split('?')[1]);
  const list = sorted(params.get('order')).slice(0, total);
  const after = params.get('after');
  const start = after ? list.findIndex((r) => encodeCursor(r.lastMessageAt, r.id) === after) + 1 : 0;
  const limit = Number(params.get('limit'));
  const data = list.slice(start, start + limit);
  const last = data.at(-1);
  return { meta: { tab: 'queuesChats', next: data.length === limit && last ? encodeCursor(last.lastMessageAt, last.id) : null }, data };
}

/** 'Fila' of `total` rooms behind a live source and GET /api/rooms; scrollToEnd is the list reaching its end. */
function setup(total = all.length) {
  const api = recordingApi({ 'GET /api/rooms': (call: RecordedCall) => roomsPage(call, total) });
  const live = staticLive({ rooms: (q) => sorted(q.order).slice(0, Math.min(total, Number(q.limit))) as unknown as LiveRecord[] });
  const seen: { current: ReturnType<typeof useRoomList> | null } = { current: null };
  function Probe() {
    seen.current = useRoomList('queuesChats', 'desc');
    return null;
  }
  render(
    <StoryConsole api={api} live={live}>
      <Probe />
    </StoryConsole>,
  );
  const scrollToEnd = async () => {
    await act(async () => {
      seen.current!.loadMore();
      await api.settled();
      await new Promise((r) => setTimeout(r, 0));
    });
  };
  return { api, live, seen, scrollToEnd };
}

describe('useRoomList (a tab longer than its live window)', () => {
  it('grows the live window a page at a time, then asks REST pages starting right after the window, never re-reading it', async () => {
    const { api, live, seen, scrollToEnd } = setup();
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(seen.current!.list.ids).toHaveLength(100);
    for (let i = 0; i < 4; i++) await scrollToEnd();
    expect(live.queries.filter((q) => q.collection === 'rooms').map((q) => q.query.limit)).toEqual([100, 200, 300, 400, MAX_ROOMS_LIMIT]);
    expect(seen.current!.list.ids).toHaveLength(MAX_ROOMS_LIMIT);
    expect(api.calls).toEqual([]);

    await scrollToEnd();
    await scrollToEnd();
    await scrollToEnd(); // 650 rooms: the second page was the last (50 rooms)
    const pages = api.calls.map((c) => Object.fromEntries(new URLSearchParams(c.path.split('?')[1])));
    const room500 = all[MAX_ROOMS_LIMIT - 1]!;
    expect(pages.map((p) => p.limit)).toEqual(['100', '100']);
    expect(pages[0]!.after).toBe(encodeCursor(room500.lastMessageAt, room500.id));
    expect(pages[1]!.after).toBe(encodeCursor(all[599]!.lastMessageAt, all[599]!.id));
    expect(seen.current!.list.ids).toEqual(all.map((r) => r.id));
  });

  it('a window of exactly the live limit asks one REST page, finds nothing more and stops asking until the window ends elsewhere', async () => {
    const { api, live, seen, scrollToEnd } = setup(MAX_ROOMS_LIMIT);
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    for (let i = 0; i < 7; i++) await scrollToEnd();
    expect(seen.current!.list.ids).toHaveLength(MAX_ROOMS_LIMIT);
    expect(api.calls).toHaveLength(1);
    // A new chat enters the head of the window and pushes its last room out: that room is asked for.
    const fresh = room(9999, { id: 'room-new', lastMessage: { createdAt: '2026-11-20T15:00:00.000Z' } });
    const window = [fresh, ...all.slice(0, MAX_ROOMS_LIMIT - 1)] as unknown as LiveRecord[];
    // (staticLive keeps the order records are given in; the hub's window is ordered.)
    await act(async () => live.push('rooms', { removed: all.slice(0, MAX_ROOMS_LIMIT).map((r) => r.id), added: window }));
    await scrollToEnd();
    expect(api.calls).toHaveLength(2);
    const second = new URLSearchParams(api.calls[1]!.path.split('?')[1]);
    expect(second.get('after')).toBe(encodeCursor(all[MAX_ROOMS_LIMIT - 2]!.lastMessageAt, all[MAX_ROOMS_LIMIT - 2]!.id));
    expect(seen.current!.list.ids.at(-1)).toBe(all[MAX_ROOMS_LIMIT - 1]!.id);
  });
});
