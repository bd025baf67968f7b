import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './MessageList.stories';
import { chosenActions } from './MessageList.stories';

const { Conversation, LoadFailed, ReadOnly } = composeStories(stories);
const log = () => screen.getByRole('log', { name: 'Mensagens' });

function scrollTo(top: number, height = 3000, client = 500) {
  const el = log();
  Object.defineProperty(el, 'scrollHeight', { value: height, configurable: true });
  Object.defineProperty(el, 'clientHeight', { value: client, configurable: true });
  el.scrollTop = top;
  fireEvent.scroll(el);
}

beforeEach(() => {
  chosenActions().length = 0;
});

describe('MessageList (seed 001 §2 "Open chat", §4 "Scrolling")', () => {
  it('shows the newest 20 with the unread divider before the two unread contact messages', async () => {
    const { container } = render(<Conversation />);
    expect(await screen.findByText('Vocês entregam no sábado?')).toBeTruthy();
    expect(container.querySelectorAll('[data-message-id]')).toHaveLength(20);
    const divider = container.querySelector('[data-unread-divider]')!;
    expect(divider.textContent).toBe('2 MENSAGENS NÃO LIDAS');
    expect((divider.parentElement!.querySelector('[data-message-id]') as HTMLElement).dataset.messageId).toBe('room-1-m28');
  });

  it('loads the older page when scrolled to the top', async () => {
    const { container } = render(<Conversation />);
    await screen.findByText('Vocês entregam no sábado?');
    scrollTo(0);
    expect(await screen.findByText('Oi, tudo bem? Quero fazer um pedido.')).toBeTruthy();
    expect(container.querySelectorAll('[data-message-id]')).toHaveLength(30);
  });

  it("says the chat could not load after the older page failed twice", async () => {
    render(<LoadFailed />);
    await screen.findByText('Vocês entregam no sábado?');
    scrollTo(0);
    expect((await within(log()).findByRole('alert')).textContent).toBe(messages.chat.loadFailed);
  });

  it("offers 'Responder' on a message and hands the message to the pane", async () => {
    render(<Conversation />);
    const bubble = (await screen.findByText('Vocês entregam no sábado?')).closest('[data-message-id]') as HTMLElement;
    fireEvent.click(within(bubble).getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Responder' }));
    expect(chosenActions()).toEqual([{ action: 'onReply', id: 'room-1-m29' }]);
  });

  it('read-only (public chat) offers no message options', async () => {
    render(<ReadOnly />);
    await screen.findByText('Vocês entregam no sábado?');
    expect(screen.queryAllByRole('button', { name: 'Opções da mensagem' })).toEqual([]);
  });
});
