import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './WhatsappKinds.stories';

const s = composeStories(stories);
const k = messages.whatsappKinds;
const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

describe('WhatsApp message kinds as the agent sees them (real Cloud API payloads)', () => {
  it('every story renders a bubble with visible pt-BR content, never the placeholder of an unknown type', () => {
    for (const [name, Story] of Object.entries(s)) {
      const { container, unmount } = render(<Story />);
      expect(container.querySelector('[data-message-id]'), name).toBeTruthy();
      expect(container.querySelector('[data-unknown-type]'), name).toBeNull();
      expect(container.textContent, name).not.toMatch(/^\[/);
      unmount();
    }
  });

  it('order: a card with each product, quantity, unit price and subtotal in its currency, and the total', () => {
    const { container } = render(<s.Order />);
    const items = [...container.querySelectorAll('[data-order-item]')].map((i) => i.textContent);
    expect(items).toEqual([
      `3 × HAMBURGER — ${nbsp('₪ 30,00')}${nbsp('₪ 90,00')}`,
      `2 × FRENCH_FRIES — ${nbsp('₪ 35,00')}${nbsp('₪ 70,00')}`,
      `2 × SODA — ${nbsp('₪ 10,00')}${nbsp('₪ 20,00')}`,
    ].map((t) => t.replace(/\u00a0/g, '\u00a0')));
    expect(container.querySelector('strong')!.textContent).toBe(`Total: ${nbsp('₪ 180,00')}`);
    expect(screen.getByText('Catálogo 354160437058781')).toBeTruthy();
    expect(screen.getByText('· 7 itens')).toBeTruthy();
  });

  it('order in two currencies: one total per currency, no made-up sum', () => {
    const { container } = render(<s.OrderMixedCurrencies />);
    expect([...container.querySelectorAll('strong')].map((e) => e.textContent)).toEqual([`Total: ${nbsp('US$ 20,00')}`, `Total: ${nbsp('R$ 91,00')}`]);
  });

  it("number changed: WhatsApp's notice in pt-BR, centred, numbers formatted by their country (not the Brazilian mask)", async () => {
    const { container } = render(<s.NumberChanged />);
    expect(container.querySelector('[data-author-kind]')!.getAttribute('data-author-kind')).toBe('system');
    // Foreign formats arrive with the first foreign number (console/src/ui/phoneFormats.ts).
    await waitFor(() => expect(container.querySelector('[data-system-notice]')!.textContent).toBe(k.numberChanged.replace('{old}', '+972 987654321').replace('{new}', '+972 912345678')));
    expect(container.textContent).not.toContain('(98)');
  });

  it('identity changed: the security-code notice', () => {
    render(<s.IdentityChanged />);
    expect(screen.getByText(k.identityChanged)).toBeTruthy();
  });

  it('unsupported (131051): what arrived, what to ask the customer, and the error kept', () => {
    const { container } = render(<s.Unsupported />);
    expect(screen.getByText(k.unsupportedTitle.replace('{kind}', 'uma enquete'))).toBeTruthy();
    expect(screen.getByText(k.unsupportedHint)).toBeTruthy();
    expect(container.textContent).toContain('Tipo de mensagem não suportado (Código 131051)');
    expect(container.textContent).toContain('Message type is currently not supported.');
  });

  it('an interactive message without its body: the value-level error (131000) in pt-BR', () => {
    const { container } = render(<s.InteractiveWithError />);
    expect(screen.getByText(k.unsupportedTitle.replace('{kind}', 'uma resposta interativa'))).toBeTruthy();
    expect(container.textContent).toContain('Falha inesperada no WhatsApp (Código 131000)');
  });

  it('flow reply: the answers as a readable list, the flow token left out', () => {
    const { container } = render(<s.FlowReply />);
    expect(screen.getByText(k.flowAnswered)).toBeTruthy();
    const pairs = [...container.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling!.textContent}`);
    expect(pairs).toEqual(['Comment text: Comment Text', 'Delivery rating: 4', 'Purchase rating: 2', 'Recommend radio: 0', 'Cs rating: 0']);
    expect(container.textContent).not.toContain('AQAAAAACS5FpgQ');
  });

  it('a location pin without a name and vCards whose phones say their kind', () => {
    const location = render(<s.CurrentLocation />);
    expect(screen.getByRole('link').textContent).toBe('Localização (12.25089, 43.90539)');
    location.unmount();
    const { container } = render(<s.ContactsWithPhones />);
    expect(container.textContent).toContain('+1 555-555-5555 · celular');
    expect(container.textContent).toContain('+1 666-666-6666 · casa');
  });

  it("a failed delivery shows the provider's pt-BR title on the failed tick", () => {
    const { container } = render(<s.FailedByProvider />);
    expect(container.querySelector('[data-delivery]')!.getAttribute('data-delivery')).toBe('failed');
    expect(screen.getByLabelText('Número do cliente faz parte de um experimento da Meta: mensagem não entregue')).toBeTruthy();
  });

  it('a message from another day shows its date with the time', () => {
    const { container } = render(<s.OlderMessage />);
    expect(container.querySelector('[data-message-time]')!.textContent).toMatch(/^22\/11 \d\d:05$/);
  });
});
