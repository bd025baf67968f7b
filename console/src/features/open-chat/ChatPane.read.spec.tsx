import { afterEach, describe, expect, it } from 'vitest';
import { composeStory } from '@storybook/react';
import { act, configure, render, screen, waitFor } from '@testing-library/react';
import * as stories from './ChatPane.stories';
import { recordingApi } from '../../fixtures/StoryConsole';
import { messagesPage, openRoom } from '../../fixtures/conversation';
import { rooms } from '../../fixtures/chatFixtures';

/**
 * The mark-read rule (docs/whatsapp.md "Read receipts"): opening a chat you attend, at the
 * bottom, with the page visible, marks it read (PATCH lastMessage.unread false, which sends the
 * provider's read receipt); a background tab waits until it shows; a chat you only look at
 * (queue, supervision) is not marked.
 */
configure({ asyncUtilTimeout: 4000 });

const api = () => recordingApi({ 'GET /api/rooms/*': messagesPage(), 'PATCH /api/rooms/*': { meta: { ok: true }, data: openRoom }, 'GET /api/fixedMessages': [] });
const reads = (a: ReturnType<typeof api>) => a.calls.filter((c) => c.method === 'PATCH' && JSON.stringify(c.body) === '{"lastMessage":{"unread":false}}');

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => setVisibility('visible'));

const story = (base: typeof stories.Open, parameters: Record<string, unknown>) =>
  composeStory(base, { ...stories.default, parameters } as Parameters<typeof composeStory>[1]);

describe('reading a chat marks it read', () => {
  it('an agent of the room opening it (page visible) marks it read once', async () => {
    const a = api();
    const Open = story(stories.Open, { api: a });
    render(<Open />);
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    await waitFor(() => expect(reads(a)).toHaveLength(1));
    expect(reads(a)[0]!.path).toBe(`/api/rooms/${openRoom.id}`);
    // The answer is stored and re-renders the pane, which reads the same last message: no second mark.
    await act(() => a.settled());
    expect(reads(a)).toHaveLength(1);
  });

  it('a chat opened in a background tab is marked when the tab shows', async () => {
    setVisibility('hidden');
    const a = api();
    const Open = story(stories.Open, { api: a });
    render(<Open />);
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    // Every request of the opening (messages, room) answered and rendered: no mark while hidden.
    await act(() => a.settled());
    expect(reads(a)).toHaveLength(0);
    act(() => setVisibility('visible'));
    await waitFor(() => expect(reads(a)).toHaveLength(1));
    await act(() => a.settled());
    expect(reads(a)).toHaveLength(1);
  });

  it('looking at a chat one does not attend (queue preview) leaves it unread', async () => {
    const a = api();
    const queued = { ...rooms[2]!, unreadCount: 1 };
    const Queued = story(stories.Queued, { api: a, room: queued });
    render(<Queued roomId={queued.id} />);
    expect(await screen.findByRole('log', { name: 'Mensagens' })).toBeTruthy();
    await act(() => a.settled());
    expect(reads(a)).toHaveLength(0);
  });
});
