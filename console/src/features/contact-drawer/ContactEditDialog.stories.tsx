import type { Meta, StoryObj } from '@storybook/react';
import { messages } from '@atendimento/schemas';
import { ContactEditDialog } from './ContactEditDialog';
import { StoryConsole, recordingApi, type RecordedCall } from '../../fixtures/StoryConsole';
import { createConsoleStores } from '../../store/consoleStores';
import { adminUser, contacts, rooms } from '../../fixtures/chatFixtures';

const maria = { ...contacts[0]!, name: 'Maria Aparecida Souza', blockedReceiving: false, phoneLocked: true };
const blocked = { ...contacts[1]!, blockedReceiving: false, phoneLocked: false };

/** GET and PATCH /api/rooms/{id}/contact as the server answers them; a PATCH with a bad e-mail fails like the register's schema. */
export const contactApi = () =>
  recordingApi({
    'GET /api/rooms/room-1/contact': { data: maria },
    'GET /api/rooms/room-4/contact': { data: blocked },
    'PATCH /api/rooms/room-1/contact': (call: RecordedCall) => {
      const body = call.body as Record<string, unknown>;
      if (typeof body.email === 'string' && !body.email.includes('.')) {
        return Object.assign(new Error('Dados inválidos: Informe um e-mail válido'), { fields: [{ field: 'email', message: 'Informe um e-mail válido' }] });
      }
      return { meta: { ok: true, message: messages.contact.updated }, data: { ...maria, ...body } };
    },
    'PATCH /api/rooms/room-4/contact': { meta: { ok: true, message: messages.contact.updated }, data: blocked },
  });

const meta: Meta<typeof ContactEditDialog> = {
  title: 'Console/ContactEditDialog',
  component: ContactEditDialog,
  args: { open: true, roomId: 'room-1', onClose: () => undefined },
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? contactApi()} user={ctx.parameters.user} stores={ctx.parameters.stores ?? createConsoleStores({ rooms })}>
      <Story />
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof ContactEditDialog>;

/** An agent: Ativo and the blocks are read-only; the phone is locked (the chat is active). */
export const AsAgent: Story = {};
/** An admin toggles Ativo and the blocks. */
export const AsAdmin: Story = { parameters: { user: adminUser } };
/** A blocked contact opens read-only for an agent. */
export const BlockedAsAgent: Story = { args: { roomId: 'room-4' } };
export const BlockedAsAdmin: Story = { args: { roomId: 'room-4' }, parameters: { user: adminUser } };
