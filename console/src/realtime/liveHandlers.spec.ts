import { describe, expect, it } from 'vitest';
import { createConsoleStores } from '../store/consoleStores';
import { dispatchLive } from './liveHandlers';

const room = (id: string) => ({ id, active: true, author: { displayName: id } });

describe('an open chat whose room the server does not show (docs/console.md "Back to the console")', () => {
  it('stays open when the snapshot brings the room, closes when it does not', () => {
    const stores = createConsoleStores({ ui: { openRooms: ['r1', 'r2'], drawerRoomId: 'r2' } });
    dispatchLive(stores, { collection: 'room', roomId: 'r1' }, { kind: 'snapshot', records: [room('r1')], frame: {} });
    dispatchLive(stores, { collection: 'room', roomId: 'r2' }, { kind: 'snapshot', records: [], frame: {} });
    expect(stores.rooms.get().records.r1).toBeTruthy();
    expect(stores.ui.get().openRooms).toEqual(['r1']);
    expect(stores.ui.get().drawerRoomId).toBe('r1');
  });

  it('closes on a subscription error only when the room never loaded', () => {
    const stores = createConsoleStores({ rooms: [room('r1') as never], ui: { openRooms: ['r1', 'r2'] } });
    const error = { kind: 'error' as const, records: [], frame: { error: 'forbidden', errorMessage: 'Sem acesso' } };
    dispatchLive(stores, { collection: 'room', roomId: 'r1' }, error);
    dispatchLive(stores, { collection: 'room', roomId: 'r2' }, error);
    expect(stores.ui.get().openRooms).toEqual(['r1']);
  });
});
