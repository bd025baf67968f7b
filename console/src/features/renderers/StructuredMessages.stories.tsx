import type { Meta, StoryObj } from '@storybook/react';
import type { ChatMessage } from '../../model/chat';
import { CallMessage, CardMessage, ContactsMessage, ErrorMessage, InteractiveMessage, LinkMessage, LocationMessage, OrderMessage, TemplateMessage } from './StructuredMessages';
import { whatsappMessages as wa } from '../../fixtures/whatsappMessages';
import { productMessages as pm } from '../../fixtures/chatFixtures';

const reloaded: string[] = [];
/** Ids the ErrorWithReload story was asked to reload (specs assert on them). */
export function reloadedMessages(): string[] {
  return reloaded;
}

/** The structured renderers of seed 001 §2, each on its own (MessageContent picks one by type). */
const meta: Meta = {
  title: 'Console/Renderers/StructuredMessages',
  decorators: [(Story) => <div style={{ maxWidth: 420, padding: 16, background: '#f5f5f5' }}><Story /></div>],
};
export default meta;
type Story = StoryObj;

/** Shared vCards from WhatsApp: name, company, phones, e-mails. */
export const Contacts: Story = { render: () => <ContactsMessage message={wa.contacts} /> };
/** A location: a link to a maps search, no embedded map. */
export const Location: Story = { render: () => <LocationMessage message={wa.location} /> };
/** A bot card: image, title, subtitle, postback buttons. */
export const Card: Story = { render: () => <CardMessage message={pm.card} /> };
/** A link preview. */
export const Link: Story = { render: () => <LinkMessage message={pm.link} /> };
/** A template as sent: header, body, footer, buttons. */
export const Template: Story = { render: () => <TemplateMessage message={pm.template} /> };
/** Interactive reply buttons. */
export const InteractiveButtons: Story = { render: () => <InteractiveMessage message={pm.interactiveButtons} /> };
/** An interactive list: its button opens the sections and rows. */
export const InteractiveList: Story = { render: () => <InteractiveMessage message={pm.interactiveList} /> };
/** The contact's answer to a list. */
export const ListReply: Story = { render: () => <InteractiveMessage message={wa.listReply} /> };
/** Media that could not be fetched, with 'recarregar'. */
export const ErrorWithReload: Story = { render: () => <ErrorMessage message={pm.error} onReload={(m: ChatMessage) => void reloaded.push(m.id)} /> };
/** A missed call and an answered one with its duration. */
export const Calls: Story = {
  render: () => (
    <>
      <CallMessage message={pm.call} />
      <CallMessage message={pm.callIncoming} />
    </>
  ),
};
/** An order with its items and total in BRL. */
export const Order: Story = { render: () => <OrderMessage message={pm.order} /> };
