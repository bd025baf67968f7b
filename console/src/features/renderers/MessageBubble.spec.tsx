import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import * as stories from './MessageBubble.stories';
import { AUTHOR_COLORS } from '../../ui/constants';

const s = composeStories(stories);
const bubble = (c: HTMLElement) => c.querySelector('[data-message-id] > div') as HTMLElement;

describe('MessageBubble', () => {
  it('colours by author (seed 001 §9) and puts the contact on the left, the product on the right', () => {
    const cases: [keyof typeof s, string, string][] = [
      ['Client', 'client', 'flex-start'],
      ['OwnAgent', 'ownAgent', 'flex-end'],
      ['OtherAgent', 'otherAgent', 'flex-end'],
      ['Bot', 'bot', 'flex-end'],
      ['System', 'system', 'center'],
      ['InternalNote', 'annotation', 'flex-end'],
    ];
    for (const [name, kind, side] of cases) {
      const Story = s[name];
      const { container, unmount } = render(<Story />);
      const row = container.querySelector('[data-message-id]') as HTMLElement;
      expect(row.dataset.authorKind, name).toBe(kind);
      expect(getComputedStyle(row).justifyContent, name).toBe(side);
      expect(getComputedStyle(bubble(container)).backgroundColor, name).toBe(hexToRgb(AUTHOR_COLORS[kind as keyof typeof AUTHOR_COLORS]));
      unmount();
    }
  });

  it('names the member who wrote in a group, not in a one-to-one chat', () => {
    const { unmount } = render(<s.GroupMember />);
    expect(screen.getByText('Ana (Compras)')).toBeTruthy();
    unmount();
    render(<s.Client />);
    expect(screen.queryByText(stories.Client.args!.message!.author!.displayName!)).toBeNull();
  });

  it("internal notes say 'Anotação Interna (não visível ao contato)'", () => {
    render(<s.InternalNote />);
    expect(screen.getByText('Anotação Interna (não visível ao contato)')).toBeTruthy();
  });

  it('shows the delivery indicator waiting → sent → delivered → read', () => {
    for (const [name, state] of [['Waiting', 'waiting'], ['Sent', 'sent'], ['Delivered', 'delivered'], ['Read', 'read']] as const) {
      const Story = s[name];
      const { container, unmount } = render(<Story />);
      expect(container.querySelector('[data-delivery]')!.getAttribute('data-delivery'), name).toBe(state);
      unmount();
    }
  });

  it('a failed message shows the provider error and a resend button', () => {
    const onResend = vi.fn();
    const { container } = render(<s.Failed onResend={onResend} />);
    expect(container.querySelector('[data-delivery="failed"]')).toBeTruthy();
    expect(screen.getByLabelText('Mensagem não entregue')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar' }));
    expect(onResend).toHaveBeenCalledTimes(1);
  });

  it("a message without any status after 60 s is failed with 'Erro no Envio'", () => {
    render(<s.FailedAfter60s />);
    expect(screen.getByLabelText('Erro no Envio')).toBeTruthy();
  });

  it("a deleted message reads 'Mensagem apagada' and hides its content unless seeDeletedMessages", () => {
    const { unmount } = render(<s.Deleted />);
    expect(screen.getByText('Mensagem apagada')).toBeTruthy();
    expect(screen.queryByText('Texto que foi apagado')).toBeNull();
    unmount();
    render(<s.DeletedSeenByClaim />);
    expect(screen.getByText('Mensagem apagada')).toBeTruthy();
    expect(screen.getByText('Texto que foi apagado')).toBeTruthy();
  });

  it("the customer's own edits and deletes say so", () => {
    const { unmount } = render(<s.EditedByCustomer />);
    expect(screen.getByText('editada pelo cliente')).toBeTruthy();
    expect(screen.getByText('Quero 3 unidades')).toBeTruthy();
    unmount();
    render(<s.DeletedByCustomer />);
    expect(screen.getByText('Mensagem apagada pelo cliente')).toBeTruthy();
  });

  it('edited messages are marked and reactions are shown', () => {
    render(<s.Edited />);
    expect(screen.getByText('Editada')).toBeTruthy();
    render(<s.WithReaction />);
    expect(screen.getByLabelText('Reações').textContent).toBe('👍');
  });

  it('own messages offer Responder, Reagir, Editar, Excluir; choosing calls back with the message', () => {
    const onEdit = vi.fn();
    const onReact = vi.fn();
    render(<s.OwnAgent onEdit={onEdit} onReact={onReact} />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções da mensagem' }));
    expect(screen.getByText('Responder')).toBeTruthy();
    expect(screen.getByText('Excluir')).toBeTruthy();
    fireEvent.click(screen.getByText('Editar'));
    expect(onEdit).toHaveBeenCalledWith(stories.OwnAgent.args!.message);
    fireEvent.click(screen.getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(screen.getByText('Reagir'));
    fireEvent.click(screen.getByLabelText('Reagir com ❤️'));
    expect(onReact).toHaveBeenCalledWith(stories.OwnAgent.args!.message, '❤️');
  });

  it("the contact's messages cannot be edited or deleted", () => {
    render(<s.Client />);
    fireEvent.click(screen.getByRole('button', { name: 'Opções da mensagem' }));
    expect(screen.getByText('Responder')).toBeTruthy();
    expect(screen.queryByText('Editar')).toBeNull();
    expect(screen.queryByText('Excluir')).toBeNull();
  });

  it('a reply shows the quoted message and jumps to it on click', () => {
    const onJump = vi.fn();
    const { container } = render(<s.ReplyQuote onJumpToReply={onJump} />);
    const quote = container.querySelector('[data-reply-preview]') as HTMLElement;
    expect(quote.textContent).toContain('Ana Agente');
    fireEvent.click(quote);
    expect(onJump).toHaveBeenCalledWith('ext-x');
  });

  it('read-only (public page) has no options menu and no resend', () => {
    render(<s.ReadOnly />);
    expect(screen.queryByRole('button', { name: 'Opções da mensagem' })).toBeNull();
  });
});

function hexToRgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
