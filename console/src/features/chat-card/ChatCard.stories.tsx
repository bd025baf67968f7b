import type { Meta, StoryObj } from '@storybook/react';
import { ChatCard, ChatCardStyles } from './ChatCard';
import { NOW, room, rooms } from '../../fixtures/chatFixtures';
import { StoryConsole } from '../../fixtures/StoryConsole';

const meta: Meta<typeof ChatCard> = {
  title: 'Console/ChatCard',
  component: ChatCard,
  args: { now: NOW, room: rooms[0] },
  decorators: [(Story) => <StoryConsole><ChatCardStyles /><div style={{ width: 420, border: '1px solid #ddd' }}><Story /></div></StoryConsole>],
};
export default meta;
type Story = StoryObj<typeof ChatCard>;

export const UnreadWithEverything: Story = { args: { room: rooms[0] } };
/** Tags in their own colours (the tenant's tags register): dark ones with white text. */
export const ColoredTags: Story = { args: { room: room(14, { tags: ['tag-vip', 'tag-lead', 'tag-sem-cor'], tagsNames: ['VIP', 'Lead', 'Sem cor'] }), tagColors: { 'tag-vip': '#D32F2FFF', 'tag-lead': '#FFEB3B', 'tag-sem-cor': null } } };
export const ReadMediaLastMessage: Story = { args: { room: rooms[1] } };
export const Queued: Story = { args: { room: rooms[2] } };
export const Active: Story = { args: { room: rooms[1], active: true } };
export const BlockedForAgent: Story = { args: { room: rooms[3] } };
export const BlockedForAdmin: Story = { args: { room: rooms[3], isAdmin: true } };
export const SelectionMode: Story = { args: { room: rooms[0], selectionMode: true, checked: true } };
export const WithReferral: Story = { args: { room: room(9, { referal: { source_id: 'AD-123', headline: 'Promoção' }, messageActive: true }) } };
export const Closed: Story = { args: { room: rooms[4] } };
/** A contact with a photo (an inline image, so the story needs no server): it enlarges on click. */
export const WithPhoto: Story = {
  args: { room: room(13, { author: { displayName: 'Rita Foto', photoUrl: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } }) },
};

/** A customer from Israel: the number in its country's format, loaded with the first foreign number. */
export const ForeignNumber: Story = { args: { room: room(12, { chatId: '972501234567' }) } };

/** A web-chat visitor who gave an e-mail: the card shows the e-mail, never the internal 'webchat:<uuid>' id. */
export const WebchatVisitor: Story = {
  args: { room: room(11, { channel: 'webchat', chatId: 'webchat:2f0c6a7e-1b9d-4a51-9a3e-6c1d2b7f8e90', author: { id: 'contact-11', displayName: 'Paula Visitante', email: 'paula@exemplo.com.br', phone: null, chatId: 'webchat:2f0c6a7e-1b9d-4a51-9a3e-6c1d2b7f8e90' } }) },
};
