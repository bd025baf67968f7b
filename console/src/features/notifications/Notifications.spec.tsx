import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { composeStory } from '@storybook/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import * as stories from '../../ServiceView.stories';
import { serviceLive } from '../../ServiceView.stories';
import { room } from '../../fixtures/chatFixtures';
import { appConfig } from '../../fixtures/chatFixtures';
import type { LiveRecord } from '../../realtime/liveSource';
import { badgeIcon } from './faviconBadge';
import { roomNotices } from './roomNotifications';

/** Browser notifications, the title and the favicon badge (seed 001 §4), through the ServiceView story. */
const shown: { title: string; body?: string }[] = [];
class FakeNotification {
  static permission = 'granted';
  constructor(title: string, options?: { body?: string }) {
    shown.push({ title, body: options?.body });
  }
}
let visibility: 'visible' | 'hidden' = 'hidden';

beforeEach(() => {
  shown.length = 0;
  visibility = 'hidden';
  vi.stubGlobal('Notification', FakeNotification);
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderWith(config = appConfig, user?: Record<string, unknown>) {
  const live = serviceLive();
  const Story = composeStory(stories.NoChatOpen, stories.default, { parameters: { live } } as never);
  render(<Story appConfig={config} {...(user ? { user: user as never } : {})} />);
  return live;
}

const newChat = () => room(90, { author: { id: 'contact-90', displayName: 'Nina Nova' }, lastMessage: { text: 'Oi', unread: true, createdAt: new Date().toISOString() } }) as unknown as LiveRecord;

describe('browser notifications', () => {
  it("'Novo Chat' when a chat joins the queue while the page is hidden", async () => {
    const live = renderWith();
    await screen.findAllByText('Maria Souza');
    await waitFor(() => expect(live.queries.filter((q) => q.collection === 'rooms' && q.query.tab === 'queuesChats').length).toBeGreaterThan(0));
    await act(async () => live.push('rooms', { added: [newChat()] }));
    await waitFor(() => expect(shown).toContainEqual({ title: 'Novo Chat', body: 'Nina Nova' }));
  });

  it('nothing while the page is visible, nor with disableNotifications (tenant or user)', async () => {
    visibility = 'visible';
    const live = renderWith();
    await screen.findAllByText('Maria Souza');
    await act(async () => live.push('rooms', { added: [newChat()] }));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(shown).toEqual([]);

    visibility = 'hidden';
    const off = renderWith({ ...appConfig, claims: { ...appConfig.claims, disableNotifications: true } });
    await act(async () => off.push('rooms', { added: [newChat()] }));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(shown).toEqual([]);
  });

  it("'Nova Mensagem - {author}' for a customer's new message, 'Novo Chat de grupo' for a group someone else started", () => {
    const before = new Map([['room-1', { id: 'room-1', author: { displayName: 'Maria Souza' }, lastMessage: { messageId: 'm1', author: { type: 'client' } } } as LiveRecord]]);
    const modified = [{ id: 'room-1', author: { displayName: 'Maria Souza' }, lastMessage: { messageId: 'm2', text: 'Chegou?', author: { type: 'client' } } } as LiveRecord];
    expect(roomNotices('chats', before, [], modified, 'me')).toEqual([{ title: 'Nova Mensagem - Maria Souza', body: 'Chegou?', tag: 'message:room-1' }]);
    // The agent's own message is no news.
    expect(roomNotices('chats', before, [], [{ ...modified[0]!, lastMessage: { messageId: 'm3', author: { type: 'agent' } } }], 'me')).toEqual([]);
    const group = { id: 'g1', author: { id: 'other' }, agents: [{ id: 'a' }, { id: 'b' }, { id: 'me' }] } as LiveRecord;
    expect(roomNotices('internal', new Map(), [group], [], 'me')).toEqual([{ title: 'Novo Chat de grupo', body: '', tag: 'group:g1' }]);
    expect(roomNotices('internal', new Map(), [{ ...group, author: { id: 'me' } }], [], 'me')).toEqual([]);
  });
});

describe('title and favicon', () => {
  it("'ChatBot UF (n)' and the favicon badge with the count of the agent's chats", async () => {
    renderWith();
    await waitFor(() => expect(document.title).toBe('ChatBot UF (1)'));
    await waitFor(() => expect(document.querySelector('link[rel~="icon"]')?.getAttribute('data-badge')).toBe('3'));
    expect(document.querySelector('link[rel~="icon"]')?.getAttribute('href')).toBe(badgeIcon(3));
    expect(decodeURIComponent(badgeIcon(120))).toContain('>99+<');
  });
});
