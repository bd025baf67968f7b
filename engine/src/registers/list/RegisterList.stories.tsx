import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { storyUser } from '../../stories/fixtures';
import { RegisterAdmin } from '../stories/RegisterAdmin';
import { fakeRegister } from '../stories/fakeRegister';
import { contactsAdminShell, definitionsRoute, storyView } from '../stories/views';

const contacts = Array.from({ length: 12 }, (_, i) => ({
  id: `c${i + 1}`,
  displayName: `Contato ${String(i + 1).padStart(2, '0')}`,
  phone: `55119999900${String(i + 1).padStart(2, '0')}`,
  email: i === 0 ? 'maria@exemplo.com.br' : null,
  channels: i % 2 ? ['whatsapp', 'webchat'] : ['whatsapp'],
  active: i !== 3,
  lifeControl: { createdAt: '2026-11-20T10:00:00.000Z', deletedAt: null },
}));

/** The server's checks that stories show (the browser tests run the real ones). */
function validateContact(body: Record<string, unknown>) {
  return body.displayName ? [] : [{ field: 'displayName', message: 'Informe o nome de exibição' }];
}

const meta = {
  title: 'Cadastros/Tabela',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['contacts'] },
  parameters: {
    shell: contactsAdminShell(contacts, { 'GET /api/lookup/*': { body: { data: [] } } }, validateContact),
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Contatos as an admin: 12 contacts, 10 per page. */
export const Contacts: Story = {};

/** No contacts yet: 'Esta lista está vazia'. */
export const Empty: Story = {
  parameters: { shell: contactsAdminShell([]) },
};

/** Clients fed from an external source (externalClients): no new, edit, delete or import. */
export const ReadOnly: Story = {
  args: { names: ['clients'] },
  parameters: {
    shell: {
      path: '/clients',
      pattern: '/*',
      user: storyUser({ claims: { admin: true } }),
      api: { ...definitionsRoute(storyView('clients', { readOnly: true })), ...fakeRegister('clients', [{ id: 'k1', displayName: 'Cliente Externo', name: 'Cliente Externo Ltda', cgc: ['12345678000199'], active: true }]) },
    },
  },
};

/** A user the server gives no definition for this register. */
export const NotAllowed: Story = {
  parameters: { shell: { path: '/contacts', pattern: '/*', user: storyUser(), api: definitionsRoute() } },
};

/** Agentes as the admin Ana: her own row has no delete button (the server refuses it too). */
export const AgentsAsAdmin: Story = {
  args: { names: ['agents'] },
  parameters: {
    shell: {
      path: '/agents',
      pattern: '/*',
      user: storyUser({ id: 'u-admin', displayName: 'Ana Administradora', claims: { admin: true } }),
      api: {
        ...definitionsRoute(storyView('agents')),
        ...fakeRegister('agents', [
          { id: 'u-admin', displayName: 'Ana Administradora', email: 'admin@exemplo.com.br', claims: { admin: true }, active: true },
          { id: 'u-agente', displayName: 'Amanda Agente', email: 'agente@exemplo.com.br', claims: {}, active: true },
        ]),
      },
    },
  },
};
