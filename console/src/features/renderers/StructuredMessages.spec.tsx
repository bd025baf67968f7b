import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './StructuredMessages.stories';
import { reloadedMessages } from './StructuredMessages.stories';

const s = composeStories(stories);

beforeEach(() => {
  reloadedMessages().length = 0;
});

describe('StructuredMessages (seed 001 §2 message types)', () => {
  it('contacts: every vCard with its name and phone', () => {
    render(<s.Contacts />);
    for (const [name, phone] of [['Chandler Bing', '+1 555-555-5555'], ['Monica', '+1 666-666-6666'], ['Rachel Green', '+1 777-777-7777']]) {
      expect(screen.getByText(name!)).toBeTruthy();
      expect(screen.getByText(phone!)).toBeTruthy();
    }
  });

  it('location: a maps search link with the place, address and coordinates, opened safely', () => {
    render(<s.Location />);
    const link = screen.getByRole('link');
    expect(link.textContent).toBe('Facebook HQ - 1 Hacker Way, Menlo Park, CA 94025 (37.46120, -122.21644)');
    expect(link.getAttribute('href')).toBe('https://www.google.com/maps/search/?api=1&query=37.4611978%2C-122.2164385');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('card and link preview: title, subtitle or description, buttons', () => {
    const card = render(<s.Card />);
    expect(screen.getByText('Bolo de cenoura')).toBeTruthy();
    expect(screen.getByText('R$ 35,00')).toBeTruthy();
    expect(screen.getByText('Comprar')).toBeTruthy();
    card.unmount();
    render(<s.Link />);
    expect(screen.getByText('Loja Exemplo')).toBeTruthy();
    expect(screen.getByText('Os melhores bolos da cidade')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'https://www.exemplo.com.br' })).toBeTruthy();
  });

  it('template: its name, header, body with bold, footer and buttons', () => {
    const { container } = render(<s.Template />);
    expect(screen.getByText('Template: boas_vindas')).toBeTruthy();
    expect(screen.getByText('Bem-vindo!')).toBeTruthy();
    expect(container.querySelector('strong')!.textContent).toBe('123');
    expect(screen.getByText('Loja Exemplo')).toBeTruthy();
    expect(screen.getByText('Rastrear')).toBeTruthy();
    expect(screen.getByText('Falar com atendente')).toBeTruthy();
  });

  it('interactive: reply buttons; a list opens its sections and rows; a list reply shows the choice', () => {
    const buttons = render(<s.InteractiveButtons />);
    expect(screen.getByText('Como podemos ajudar?')).toBeTruthy();
    expect(screen.getByText('Vendas')).toBeTruthy();
    expect(screen.getByText('Suporte')).toBeTruthy();
    buttons.unmount();

    const list = render(<s.InteractiveList />);
    fireEvent.click(screen.getByRole('button', { name: 'Ver sabores' }));
    const dialog = screen.getByRole('dialog', { name: 'Ver sabores' });
    expect(within(dialog).getByText('Bolos')).toBeTruthy();
    expect(within(dialog).getByText('Cenoura')).toBeTruthy();
    expect(within(dialog).getByText('Com cobertura de chocolate')).toBeTruthy();
    expect(within(dialog).getByText('Fubá')).toBeTruthy();
    list.unmount();

    render(<s.ListReply />);
    expect(screen.getByText('title')).toBeTruthy();
    expect(screen.getByText('description')).toBeTruthy();
  });

  it("error: 'recarregar' asks for the message again", () => {
    render(<s.ErrorWithReload />);
    expect(screen.getByText('Não foi possível baixar a mídia')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: messages.chat.reload }));
    expect(reloadedMessages()).toHaveLength(1);
  });

  it("calls: 'Perdida' / 'Recebida' with subject and duration", () => {
    render(<s.Calls />);
    expect(screen.getByText('Chamada Perdida')).toBeTruthy();
    expect(screen.getByText('Ligação do cliente')).toBeTruthy();
    expect(screen.getByText('Chamada Recebida')).toBeTruthy();
    expect(screen.getByText('02:05')).toBeTruthy();
  });

  it('order: items with quantity and price, total in BRL', () => {
    const { container } = render(<s.Order />);
    expect(container.textContent).toContain('2 × bolo-cenoura — R$\u00a035,00');
    expect(container.textContent).toContain('1 × cafe — R$\u00a08,50');
    expect(container.querySelector('strong')!.textContent).toBe('Total: R$\u00a078,50');
  });
});
