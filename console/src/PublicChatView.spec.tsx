import { describe, expect, it } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './PublicChatView.stories';
import { publicApi } from './PublicChatView.stories';
import { openRoom } from './fixtures/conversation';

const s = composeStories(stories);

describe('PublicChatView (seed 002 "Public chat screen")', () => {
  it('exchanges the unguessable token for an anonymous session and shows the chat read-only: no menu, no close, no composer', async () => {
    const api = publicApi();
    const Story = composeStory(stories.ReadOnlyChat, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    const { container } = render(<Story />);
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    expect(api.calls[0]).toEqual({ method: 'POST', path: '/api/auth/anonymous', body: { roomToken: openRoom.publicToken } });
    expect(openRoom.publicToken).not.toContain(String(openRoom.roomInc));
    expect(screen.getByRole('heading', { name: 'Maria Souza' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Opções do chat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ocultar chat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Opções da mensagem' })).toBeNull();
    expect(container.querySelector('[data-composer]')).toBeNull();
    expect(api.calls.some((c) => c.method !== 'GET' && c.path !== '/api/auth/anonymous')).toBe(false);
  });

  it('an unknown token shows the load failure and no chat', async () => {
    render(<s.UnknownToken />);
    expect(await screen.findByText('Não foi possivel carregar o chat, por favor feche o chat e tente novamente')).toBeTruthy();
  });
});
