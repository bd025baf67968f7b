import type { Meta, StoryObj } from '@storybook/react';
import type { ActiveMessageOptions } from '@atendimento/schemas/chat/whatsapp';
import { ActiveMessageButton, ActiveMessageDialog } from './ActiveMessageDialog';
import { optionsMany, optionsSingleClosed, templatesAnswer } from './whatsappFixtures';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { agentUser, contacts, room, rooms } from '../../fixtures/chatFixtures';

export const activeApi = (options: ActiveMessageOptions = optionsMany) =>
  recordingApi({
    'GET /api/rooms/activeMessage/options': { meta: { ok: true }, data: options },
    'GET /api/templates': templatesAnswer(),
    'POST /api/rooms/activeMessage': { meta: { ok: true, created: true }, data: { room: room(77, { author: { id: 'contact-1', displayName: 'Maria Souza' } }), message: null } },
  });

/** An agent with claim allowActiveMessage. */
export const activeUser = { ...agentUser, claims: { allowActiveMessage: true } };

const meta: Meta<typeof ActiveMessageDialog> = {
  title: 'Console/WhatsApp/ActiveMessageDialog',
  component: ActiveMessageDialog,
  args: { open: true, contactId: 'contact-1', onClose: () => undefined },
  decorators: [(Story, ctx) => <StoryConsole user={activeUser} api={ctx.parameters.api ?? activeApi(ctx.parameters.options)}><Story /></StoryConsole>],
};
export default meta;
type Story = StoryObj<typeof ActiveMessageDialog>;

/** Two numbers and two departments: nothing preselected, both choices required. */
export const ChooseChannelAndDepartment: Story = {};
/** One number (preselected), no departments, the contact silent for more than 24 h: template only. */
export const OutsideWindow: Story = { parameters: { options: optionsSingleClosed } };

/** The drawer's button for a WhatsApp contact (hidden without the claim or for a blocked contact). */
export const DrawerButton: Story = {
  render: () => <ActiveMessageButton room={rooms[0]!} contact={contacts[0]} />,
};
