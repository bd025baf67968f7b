import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as stories from './ChatCard.stories';

const s = composeStories(stories);
const writeText = vi.fn(async (_text: string) => undefined);

beforeEach(() => {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  writeText.mockClear();
});
afterEach(() => vi.useRealTimers());

describe('ChatCard (seed 001 §2 "Chat card")', () => {
  it('shows title, number, masked phone, channel, clients, salesman, visible contexts, queues, agents, tags and the last message', () => {
    const { container } = render(<s.UnreadWithEverything />);
    for (const text of ['Maria Souza', '#1001', '+55 (11) 98765.4321', 'Web chat', 'Padaria Central', 'Representante: João Vendedor', 'orcamento', 'Vendas', 'Ana Agente', 'VIP', 'Bom dia! Vocês entregam no sábado?']) {
      expect(screen.getByText(text), text).toBeTruthy();
    }
    expect(screen.queryByText('followup_x')).toBeNull();
    expect(container.querySelector('[data-relative-time]')!.textContent).toBe('há 3 minutos');
    expect(container.querySelector('[data-unread]')).toBeTruthy();
  });

  it("draws each tag in its colour with the seed's text contrast; a tag without one keeps the neutral chip", () => {
    render(<s.ColoredTags />);
    const style = (name: string) => (screen.getByText(name) as HTMLElement).style;
    expect(style('VIP')).toMatchObject({ background: 'rgb(211, 47, 47)', color: 'rgb(255, 255, 255)' });
    expect(style('Lead')).toMatchObject({ background: 'rgb(255, 235, 59)', color: 'rgb(0, 0, 0)' });
    expect(style('Sem cor').background).toBe('');
    expect(screen.getByText('Sem cor').getAttribute('data-color')).toBe('warning');
  });

  it("copies the chat id and toasts 'Copiado'", async () => {
    render(<s.UnreadWithEverything />);
    fireEvent.click(screen.getByRole('button', { name: 'Copiar id do chat' }));
    await waitFor(() => expect(screen.getByText('Copiado')).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith('5511987654321');
  });

  it("toasts 'Falha ao copiar' when the clipboard refuses", async () => {
    writeText.mockRejectedValueOnce(new Error('denied'));
    render(<s.UnreadWithEverything />);
    fireEvent.click(screen.getByRole('button', { name: 'Copiar id do chat' }));
    await waitFor(() => expect(screen.getByText('Falha ao copiar')).toBeTruthy());
  });

  it('the referral icon copies the ad source id; the external-notification marker shows', async () => {
    render(<s.WithReferral />);
    fireEvent.click(screen.getByRole('button', { name: 'Copiar origem do anúncio' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('AD-123'));
    expect(screen.getByLabelText('Notificação externa')).toBeTruthy();
  });

  it('media last messages read as their label', () => {
    render(<s.ReadMediaLastMessage />);
    expect(screen.getByText(/Imagem/)).toBeTruthy();
  });

  it("blocked contacts show 'Contato Bloqueado' and are disabled for non-admins only", () => {
    const onOpen = vi.fn();
    const { unmount } = render(<s.BlockedForAgent onOpen={onOpen} />);
    expect(screen.getByText('Contato Bloqueado')).toBeTruthy();
    const card = screen.getByRole('button', { name: /Chat 1004/ });
    expect(card.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(card);
    expect(onOpen).not.toHaveBeenCalled();
    unmount();
    render(<s.BlockedForAdmin onOpen={onOpen} />);
    fireEvent.click(screen.getByRole('button', { name: /Chat 1004/ }));
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it('selection mode replaces the avatar with a checkbox that toggles selection', () => {
    const onToggle = vi.fn();
    const onOpen = vi.fn();
    render(<s.SelectionMode onToggleSelect={onToggle} onOpen={onOpen} />);
    const box = screen.getByRole('checkbox', { name: 'Selecionar chat 1001' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(onToggle).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: /Chat 1001/ }));
    expect(onToggle).toHaveBeenCalledTimes(2);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('opens the chat on click', () => {
    const onOpen = vi.fn();
    render(<s.Queued onOpen={onOpen} />);
    fireEvent.click(screen.getByRole('button', { name: /Chat 1003/ }));
    expect(onOpen).toHaveBeenCalledWith(stories.Queued.args!.room);
  });

  it("web chat: the visitor's e-mail as the id (shown and copied), never 'webchat:<uuid>'", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { container } = render(<s.WebchatVisitor />);
    expect(container.querySelector('[data-chat-id]')!.textContent).toBe('paula@exemplo.com.br');
    expect(container.textContent).not.toContain('webchat:');
    fireEvent.click(screen.getByRole('button', { name: 'Copiar id do chat' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('paula@exemplo.com.br'));
  });

  it('a foreign number shows as +digits, then in its own format once the formats arrive (no reload)', async () => {
    const { container } = render(<s.ForeignNumber />);
    const id = () => container.querySelector('[data-chat-id]')!.textContent;
    expect(id()).toBe('+972501234567');
    await waitFor(() => expect(id()).toBe('+972 50 123 4567'));
  });

  it("shows the contact's initials without a photo, and a photo that enlarges on click without opening the chat", async () => {
    const onOpen = vi.fn();
    const { container, unmount } = render(<s.UnreadWithEverything onOpen={onOpen} />);
    expect(container.querySelector('.chat-card-avatar')!.textContent).toBe('MS');
    unmount();

    render(<s.WithPhoto onOpen={onOpen} />);
    const photo = screen.getByRole('img', { name: 'Rita Foto' });
    fireEvent.click(photo);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('img')!.getAttribute('alt')).toBe('Rita Foto');
    expect(onOpen).not.toHaveBeenCalled();
  });
});
