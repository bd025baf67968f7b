import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { RegisterAdmin } from '../stories/RegisterAdmin';
import { contactsAdminShell } from '../stories/views';

const contacts = [
  { id: 'c1', displayName: 'Com Clientes', channels: ['webchat'], active: true, clients: ['k1', 'k2'] },
  { id: 'c2', displayName: 'Sem Clientes', channels: ['webchat'], active: true, clients: [] },
];

const meta = {
  title: 'Cadastros/Remover clientes do contato',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['contacts'] },
  parameters: {
    shell: contactsAdminShell(contacts, {
        'GET /api/lookup/*': { body: { data: [{ id: 'k1', label: 'ACME SA' }, { id: 'k2', label: 'Beta Ltda' }] } },
        'PATCH /api/contacts/*': { body: { data: { ...contacts[0], clients: ['k2'], removedClients: ['k1'] }, message: 'Clientes removidos do contato.' } },
    }),
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A contact linked to two clients: the row offers 'Remover clientes'; one without clients does not. */
export const ContactWithClients: Story = {};
