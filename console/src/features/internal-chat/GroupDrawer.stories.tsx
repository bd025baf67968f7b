import type { Meta, StoryObj } from '@storybook/react';
import { GroupDrawer } from './GroupDrawer';
import { buildRoom } from '../../fixtures/builders';
import { iso } from '../../fixtures/chatFixtures';

export const groupRoom = buildRoom({
  id: 'room-group', roomInc: 3001, createdAt: iso(30), channel: 'zApi', group: true, chatId: '120363000000000000',
  groupData: { subject: 'Condomínio Bloco B', participants: [{ phone: '5511987654321', displayName: 'Carla' }, { phone: '5521912345678', displayName: '' }] },
});

const meta: Meta<typeof GroupDrawer> = { title: 'Console/GroupDrawer', component: GroupDrawer, args: { room: groupRoom } };
export default meta;
type Story = StoryObj<typeof GroupDrawer>;

/** A WhatsApp group: its subject and 'Participantes' with phones. */
export const Group: Story = {};
