import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { storyUser } from '../../stories/fixtures';
import { RegisterAdmin } from '../stories/RegisterAdmin';
import { contactsAdminShell } from '../stories/views';

const contacts = [{ id: 'c1', displayName: 'Maria Titular', channels: ['whatsapp'], active: true, clients: [] }];

const meta = {
  title: 'Cadastros/Dados pessoais do contato (LGPD)',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['contacts'] },
  parameters: {
    shell: contactsAdminShell(contacts, {
      'POST /api/lgpd/contacts/*': { body: { data: { contact: { id: 'c1', displayName: 'Maria Titular' }, chats: 2, messages: 14, confirmationToken: 'codigo-assinado', confirmText: 'APAGAR', expiresAt: '2026-11-25T12:10:00.000Z' } } },
    }),
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An admin on the contacts list: the row offers 'Dados pessoais (LGPD)' (export, erase confirmed twice). */
export const AdminErasesAContact: Story = {};

/** An agent with the contacts screen: no LGPD action (the API answers 403 to anyone but admins). */
export const AgentWithContactsClaim: Story = {
  // Story parameters merge deeply with the meta's: admin is turned off explicitly.
  parameters: { shell: { user: storyUser({ claims: { admin: false, contacts: true } }) } },
};
