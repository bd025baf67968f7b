import type { Meta, StoryObj } from '@storybook/react';
import { MailReplyDialog, type MailReplyDraft } from './MailReplyDialog';

/** What the stories' dialog was asked to send (specs read it). */
export const sent: MailReplyDraft[] = [];

const meta: Meta<typeof MailReplyDialog> = {
  title: 'Console/MailReplyDialog',
  component: MailReplyDialog,
  args: {
    open: true,
    subject: 'Re: Pedido 123 atrasado',
    to: 'cliente@cliente.example',
    initialCc: ['gerente@cliente.example'],
    onCancel: () => undefined,
    onSend: async (draft: MailReplyDraft) => {
      sent.push(draft);
      return true;
    },
  },
};
export default meta;
type Story = StoryObj<typeof MailReplyDialog>;

/** An empty reply: 'Enviar' stays disabled (seed 001 §5). */
export const Empty: Story = {};
/** A draft with bold, a list and a quote. */
export const Draft: Story = { args: { initialHtml: '<p>Olá, <strong>Cliente</strong>!</p><ul><li>item um</li></ul><blockquote><p>citação</p></blockquote>' } };
