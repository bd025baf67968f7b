import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import * as stories from './MessageContent.stories';

const s = composeStories(stories);

describe('MessageContent renders every type of seed 001 §2 from WhatsApp fixtures and product messages', () => {
  it('renders every story without crashing and with visible content', () => {
    for (const [name, Story] of Object.entries(s)) {
      const { container, unmount } = render(<Story />);
      expect(container.textContent!.length + container.querySelectorAll('img,audio,video').length, name).toBeGreaterThan(0);
      unmount();
    }
  });

  it('text: shows the fixture body', () => {
    render(<s.WhatsAppText />);
    expect(screen.getByText('Body Text')).toBeTruthy();
  });

  it('text: *pairs* render bold and links are cut at 80 characters but keep the full href', () => {
    const { container } = render(<s.TextWithLinkAndBold />);
    expect(container.querySelector('strong')!.textContent).toBe('12h');
    const a = container.querySelector('a')!;
    expect(a.getAttribute('href')).toMatch(/atualizada-2026$/);
    expect(a.textContent!.length).toBe(83);
    expect(a.textContent!.endsWith('...')).toBe(true);
    expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('never renders message text as HTML', () => {
    const { container } = render(<s.HtmlIsText />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('image shows the picture and opens it larger on click', () => {
    render(<s.WhatsAppImage />);
    const img = screen.getByRole('img', { name: 'Imagem' });
    fireEvent.click(img);
    expect(within(screen.getByRole('dialog')).getByRole('img', { name: 'Imagem' })).toBeTruthy();
  });

  it('audio and video render players with the stored URL', () => {
    const a = render(<s.WhatsAppAudio />);
    expect(a.container.querySelector('audio')!.getAttribute('src')).toBe('/api/files/audio/1234567890987654321');
    a.unmount();
    const v = render(<s.WhatsAppVideo />);
    expect(v.container.querySelector('video')!.getAttribute('src')).toBe('/api/files/video/765756756');
    expect(screen.getByText('caption')).toBeTruthy();
  });

  it('document name is cut at 15 characters', () => {
    render(<s.WhatsAppDocument />);
    expect(screen.getByRole('link', { name: /filename.pdf/ })).toBeTruthy();
    const longName = { ...stories.WhatsAppDocument.args!.message!, document: { documentUrl: '/f', mimeType: 'application/pdf', fileName: 'relatorio-mensal-de-vendas.pdf' } };
    render(<s.WhatsAppDocument message={longName} />);
    expect(screen.getByText('relatorio-mensa...')).toBeTruthy();
  });

  it('contacts list every shared vCard with its phones', () => {
    render(<s.WhatsAppContacts />);
    expect(screen.getByText('Chandler Bing')).toBeTruthy();
    expect(screen.getByText('+1 555-555-5555')).toBeTruthy();
    expect(screen.getByText('Monica')).toBeTruthy();
  });

  it('location links to a maps service with the coordinates', () => {
    render(<s.WhatsAppLocation />);
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toContain('37.4611978%2C-122.2164385');
    expect(link.textContent).toContain('Facebook HQ');
  });

  it('interactive replies show the chosen title; lists open the list-buttons modal', () => {
    render(<s.WhatsAppListReply />);
    expect(screen.getByText('description')).toBeTruthy();
    render(<s.InteractiveList />);
    fireEvent.click(screen.getByText('Ver sabores'));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Cenoura')).toBeTruthy();
    expect(within(dialog).getByText('Fechar')).toBeTruthy();
  });

  it("error shows 'recarregar' and calls onReload with the message", () => {
    const onReload = vi.fn();
    render(<s.ErrorWithReload onReload={onReload} />);
    fireEvent.click(screen.getByRole('button', { name: 'recarregar' }));
    expect(onReload).toHaveBeenCalledWith(stories.ErrorWithReload.args!.message);
  });

  it("a file whose download failed says what failed and offers 'recarregar', not an empty placeholder", () => {
    const onReload = vi.fn();
    render(<s.ImageDownloadFailed onReload={onReload} />);
    expect(screen.getByText('Não foi possível baixar a imagem. Foto da caixa amassada')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'recarregar' }));
    expect(onReload).toHaveBeenCalledWith(stories.ImageDownloadFailed.args!.message);
    cleanup();
    render(<s.DocumentDownloadFailed />);
    expect(screen.getByText('Não foi possível baixar o documento "Nota Fiscal 4521.pdf".')).toBeTruthy();
  });

  it("calls use the seed's labels", () => {
    render(<s.CallMissed />);
    expect(screen.getByText('Chamada Perdida')).toBeTruthy();
    render(<s.CallIncoming />);
    expect(screen.getByText('Chamada Recebida')).toBeTruthy();
    expect(screen.getByText('02:05')).toBeTruthy();
  });

  it('order totals items in BRL', () => {
    render(<s.Order />);
    expect(screen.getByText(/Total: R\$\s78,50/)).toBeTruthy();
  });

  it('request, webhook and transfer open detail dialogs with labelled fields', () => {
    render(<s.RequestDetails />);
    fireEvent.click(screen.getByText('Detalhes'));
    expect(within(screen.getByRole('dialog')).getByText('Contatos')).toBeTruthy();
    expect(within(screen.getByRole('dialog')).getByText('CLIENTES')).toBeTruthy();
  });

  it('webhook fields are described in Portuguese', () => {
    render(<s.WebhookDetails />);
    fireEvent.click(screen.getByText('Detalhes'));
    expect(within(screen.getByRole('dialog')).getByText('Identificador da chamada')).toBeTruthy();
    expect(within(screen.getByRole('dialog')).getByText('Duração')).toBeTruthy();
  });

  it('unknown types show a visible placeholder', () => {
    const { container } = render(<s.UnknownType />);
    expect(container.querySelector('[data-unknown-type="hologram"]')!.textContent).toContain('não suportada');
  });

  it('template shows header, body with bold, footer and buttons', () => {
    const { container } = render(<s.Template />);
    expect(screen.getByText('Bem-vindo!')).toBeTruthy();
    expect(container.querySelector('strong')!.textContent).toBe('123');
    expect(screen.getByText('Rastrear')).toBeTruthy();
  });
});
