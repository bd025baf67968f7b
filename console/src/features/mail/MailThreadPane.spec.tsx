import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './MailThreadPane.stories';
import { mailRoom } from './mailFixtures';

const s = composeStories(stories);
configure({ asyncUtilTimeout: 4000 });

describe('MailThreadPane (seed 001 §2 "E-mail thread")', () => {
  it('shows sender, recipients and subject, and collapses more than 3 mails to the first two plus the last with "Expandir +N"', async () => {
    const { container } = render(<s.Collapsed />);
    const header = container.querySelector('[data-chat-header]') as HTMLElement;
    expect(within(header).getByRole('heading', { name: 'Pedido 123 atrasado' })).toBeTruthy();
    expect(within(header).getByText(/Cliente Silva <cliente@cliente\.example>/)).toBeTruthy();
    expect(within(header).getByText(/gerente@cliente\.example/)).toBeTruthy();
    await screen.findByText('Meu pedido', { exact: false });
    expect(container.querySelectorAll('[data-mail-message]')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Expandir +2' }));
    expect(container.querySelectorAll('[data-mail-message]')).toHaveLength(5);
    expect(screen.getByText('Obrigado, aguardo.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'nota.pdf' }).getAttribute('href')).toBe('/api/files/acme/AAAAAAAAAAAAAAAAAAAAAAAA.pdf');
  });

  it('shows a failed reply\'s error with "Reenviar", and loads remote images only on the agent\'s click', async () => {
    const api = stories.resendApi;
    const { container } = render(<s.Resend />);
    fireEvent.click(await screen.findByRole('button', { name: 'Expandir +2' }));
    await screen.findByText('Falha ao enviar o e-mail: connect ECONNREFUSED');
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === `/api/rooms/resendMessage/${mailRoom.id}/message/mail-3`)).toBe(true));
    expect(container.querySelector('img[src^="https://"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Carregar imagens externas' }));
    expect(container.querySelector('img[src="https://imagens.example/foto.png"]')).toBeTruthy();
  });

  it('a short thread is not collapsed; an auto-reply is marked; a closed thread has no "Responder"', async () => {
    const short = render(<s.Short />);
    await screen.findByText('Meu pedido', { exact: false });
    expect(screen.queryByRole('button', { name: /Expandir/ })).toBeNull();
    // The last mail is our reply: the header still reads the customer's side (from them, to our mailbox).
    const header = short.container.querySelector('[data-chat-header]') as HTMLElement;
    expect(within(header).getByText(/vendas@acme\.example/)).toBeTruthy();
    // The reply dialog (and its editor) loads on the first 'Responder'.
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Responder' });
    expect(within(dialog).getByText(/Re: /)).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Responder' })).toBeTruthy();
    short.unmount();
    const auto = render(<s.AutoReply />);
    expect(await screen.findByText('Resposta automática')).toBeTruthy();
    auto.unmount();
    render(<s.Closed />);
    await screen.findByText('Meu pedido', { exact: false });
    expect(screen.queryByRole('button', { name: 'Responder' })).toBeNull();
  });
});
