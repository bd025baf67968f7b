import type { Meta, StoryObj } from '@storybook/react';
import { MessageBubble } from './MessageBubble';
import { failedByProvider, whatsappMessages as wa } from '../../fixtures/whatsappMessages';
import type { ChatMessage } from '../../model/chat';

/**
 * The WhatsApp message kinds beyond plain content, each as the bubble an agent sees, built from
 * the Cloud API webhook fixtures (integrations/fixtures/whatsapp) the way the server stores them.
 */
const meta: Meta<typeof MessageBubble> = {
  title: 'Console/Renderers/WhatsappKinds',
  component: MessageBubble,
  decorators: [(Story) => <div style={{ maxWidth: 560, padding: 16, background: '#efeae2' }}><Story /></div>],
  args: { uid: 'agent-1', now: Date.parse('2026-11-24T15:00:00Z'), channel: 'meta' },
};
export default meta;
type Story = StoryObj<typeof MessageBubble>;

const mixed: ChatMessage = {
  ...wa.order,
  id: 'order-mixed',
  order: { product_items: [{ product_retailer_id: 'CAMISETA', quantity: 1, item_price: 20, currency: 'USD' }, { product_retailer_id: 'BONE', quantity: 2, item_price: 45.5, currency: 'BRL' }] },
};

/** A catalog order (pywa's: three products in ILS): products, quantities, subtotals and the total. */
export const Order: Story = { args: { message: wa.order } };
/** An order in two currencies: one total per currency. */
export const OrderMixedCurrencies: Story = { args: { message: mixed } };
/** The customer changed number: WhatsApp's notice in pt-BR, the numbers formatted by country. */
export const NumberChanged: Story = { args: { message: wa.numberChanged } };
/** The customer's security code changed. */
export const IdentityChanged: Story = { args: { message: wa.identityChanged } };
/** A poll WhatsApp does not deliver through the API (131051): what arrived and what to ask. */
export const Unsupported: Story = { args: { message: wa.unsupported } };
/** An interactive message that arrived without its body, with WhatsApp's value-level error. */
export const InteractiveWithError: Story = { args: { message: wa.interactiveError } };
/** A flow's answers as a list (the flow token left out). */
export const FlowReply: Story = { args: { message: wa.flowReply } };
/** A location pin without a name. */
export const CurrentLocation: Story = { args: { message: wa.currentLocation } };
/** Shared vCards with several phones, each with its kind. */
export const ContactsWithPhones: Story = { args: { message: wa.contacts } };
/** An agent's message the provider failed later (130472): the pt-BR title on the failed tick. */
export const FailedByProvider: Story = { args: { message: failedByProvider } };
/** A message from two days ago shows its date with the time. */
export const OlderMessage: Story = { args: { message: { ...wa.text, lifeControl: { createdAt: '2026-11-22T13:05:00Z', deletedAt: null } } } };
