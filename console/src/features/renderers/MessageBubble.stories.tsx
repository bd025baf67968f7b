import type { Meta, StoryObj } from '@storybook/react';
import { MessageBubble } from './MessageBubble';
import { agentUser, NOW, productMessages as pm } from '../../fixtures/chatFixtures';
import { whatsappMessages as wa } from '../../fixtures/whatsappMessages';

const meta: Meta<typeof MessageBubble> = {
  title: 'Console/Renderers/MessageBubble',
  component: MessageBubble,
  args: { uid: agentUser.id, now: NOW, channel: 'webchat' },
  decorators: [(Story) => <div style={{ width: 560, background: '#efeae2', padding: 8 }}><Story /></div>],
};
export default meta;
type Story = StoryObj<typeof MessageBubble>;

export const Client: Story = { args: { message: wa.text } };
/** A WhatsApp group (Z-API): each customer message names the member who wrote it. */
export const GroupMember: Story = { args: { message: { ...wa.text, author: { ...wa.text.author, displayName: 'Ana (Compras)', phone: '5511911110001' } }, channel: 'zApi', group: true } };
export const OwnAgent: Story = { args: { message: pm.agentText } };
export const OtherAgent: Story = { args: { message: pm.otherAgent } };
export const Bot: Story = { args: { message: pm.bot } };
export const System: Story = { args: { message: pm.system } };
export const InternalNote: Story = { args: { message: pm.annotation } };
export const Waiting: Story = { args: { message: pm.waiting } };
export const Sent: Story = { args: { message: pm.sent } };
export const Delivered: Story = { args: { message: pm.delivered } };
export const Read: Story = { args: { message: pm.read } };
export const Failed: Story = { args: { message: pm.failed, onResend: () => undefined } };
export const FailedAfter60s: Story = { args: { message: pm.failedByTimeout, onResend: () => undefined } };
export const Deleted: Story = { args: { message: pm.deleted } };
export const DeletedSeenByClaim: Story = { args: { message: { ...pm.deleted, deletedContent: { text: 'Texto que foi apagado', caption: null } }, seeDeletedMessages: true } };
export const Edited: Story = { args: { message: pm.edited } };
/** A WhatsApp customer edited their message: the bubble says the customer did. */
export const EditedByCustomer: Story = { args: { message: { ...wa.text, text: 'Quero 3 unidades', versions: [{ text: 'Quero 2 unidades', editedAt: wa.text.lifeControl.createdAt, editedBy: 'contato' }] } } };
/** A WhatsApp customer deleted their message. */
export const DeletedByCustomer: Story = { args: { message: { ...wa.text, text: null, status: { ...wa.text.status, deleted: true } } } };
export const WithReaction: Story = { args: { message: pm.reacted } };
export const ReplyQuote: Story = { args: { message: { ...wa.replyContext, replyTo: 'ext-x' }, replied: pm.agentText } };
export const Highlighted: Story = { args: { message: pm.agentText, highlighted: true } };
export const ReadOnly: Story = { args: { message: pm.agentText, readOnly: true } };
