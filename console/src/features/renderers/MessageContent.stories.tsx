import type { Meta, StoryObj } from '@storybook/react';
import { MessageContent } from './MessageContent';
import { whatsappMessages as wa } from '../../fixtures/whatsappMessages';
import { productMessages as pm } from '../../fixtures/chatFixtures';

const meta: Meta<typeof MessageContent> = {
  title: 'Console/Renderers/MessageContent',
  component: MessageContent,
  decorators: [(Story) => <div style={{ maxWidth: 420, padding: 16, background: '#f5f5f5' }}><Story /></div>],
};
export default meta;
type Story = StoryObj<typeof MessageContent>;

export const WhatsAppText: Story = { args: { message: wa.text } };
export const WhatsAppReferral: Story = { args: { message: wa.referral } };
export const WhatsAppImage: Story = { args: { message: wa.image } };
export const WhatsAppAudio: Story = { args: { message: wa.audio } };
export const WhatsAppVideo: Story = { args: { message: wa.video } };
export const WhatsAppDocument: Story = { args: { message: wa.document } };
export const WhatsAppSticker: Story = { args: { message: wa.sticker } };
export const WhatsAppLocation: Story = { args: { message: wa.location } };
export const WhatsAppContacts: Story = { args: { message: wa.contacts } };
export const WhatsAppButtonReply: Story = { args: { message: wa.buttonReply } };
export const WhatsAppListReply: Story = { args: { message: wa.listReply } };
export const WhatsAppQuickReply: Story = { args: { message: wa.quickReply } };
export const TextWithLinkAndBold: Story = { args: { message: pm.agentText } };
export const Template: Story = { args: { message: pm.template } };
export const Card: Story = { args: { message: pm.card } };
export const LinkPreview: Story = { args: { message: pm.link } };
export const InteractiveButtons: Story = { args: { message: pm.interactiveButtons } };
export const InteractiveList: Story = { args: { message: pm.interactiveList } };
export const ErrorWithReload: Story = { args: { message: pm.error, onReload: () => undefined } };
/** An image the server could not download from WhatsApp: what failed, the caption, 'recarregar'. */
export const ImageDownloadFailed: Story = { args: { message: pm.imageFailed, onReload: () => undefined } };
/** A document likewise, named. */
export const DocumentDownloadFailed: Story = { args: { message: pm.documentFailed, onReload: () => undefined } };
export const CallMissed: Story = { args: { message: pm.call } };
export const CallIncoming: Story = { args: { message: pm.callIncoming } };
export const Order: Story = { args: { message: pm.order } };
export const RequestDetails: Story = { args: { message: pm.request } };
export const WebhookDetails: Story = { args: { message: pm.webhook } };
export const TransferDetails: Story = { args: { message: pm.transfer } };
export const UnknownType: Story = { args: { message: pm.unknown } };
export const HtmlIsText: Story = { args: { message: pm.htmlInjection } };
