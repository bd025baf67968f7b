import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { StoryConsole } from '../fixtures/StoryConsole';
import { staticLive } from '../fixtures/staticLive';
import { useLiveQuery } from './useLiveQuery';
import type { LiveQueryInput } from './liveSource';

function Probe({ query }: { query: LiveQueryInput }) {
  useLiveQuery('rooms', query, { collection: 'rooms', listKey: 'queuesChats|desc|all' });
  return null;
}

describe('useLiveQuery', () => {
  it('starts a grown window from the subscription it replaces (only the limit went up); any other change starts afresh', () => {
    const live = staticLive({ rooms: () => [] });
    const view = (query: LiveQueryInput) => (
      <StoryConsole live={live}>
        <Probe query={query} />
      </StoryConsole>
    );
    const { rerender } = render(view({ tab: 'queuesChats', order: 'desc', limit: 100 }));
    rerender(view({ tab: 'queuesChats', order: 'desc', limit: 200 }));
    rerender(view({ tab: 'queuesChats', order: 'asc', limit: 300 }));
    rerender(view({ tab: 'queuesChats', order: 'asc', limit: 100 }));
    const rooms = live.queries.filter((q) => q.collection === 'rooms');
    expect(rooms.map((q) => q.query.limit)).toEqual([100, 200, 300, 100]);
    expect(rooms[1]!.from).toBe(live.handles[live.queries.indexOf(rooms[0]!)]);
    // Another order is another window; a lower limit is a smaller one: both are fresh snapshots.
    expect(rooms[2]!.from).toBeUndefined();
    expect(rooms[3]!.from).toBeUndefined();
  });
});
