import type { Meta, StoryObj } from '@storybook/react';
import { ApiError } from '../../api/api';
import { withShell } from '../../stories/StoryShell';
import { storyView } from '../stories/views';
import { RegisterForm } from './RegisterForm';

const saved: Record<string, unknown>[] = [];
/** Bodies the stories' onSave received (specs assert on them). */
export function savedBodies(): Record<string, unknown>[] {
  return saved;
}

const meta = {
  title: 'Cadastros/Formulário',
  component: RegisterForm,
  decorators: [withShell],
  parameters: { shell: { path: '/contacts/create', api: { 'GET /api/lookup/*': { body: { data: [] } } } } },
  args: {
    view: storyView('contacts'),
    mode: 'create',
    onSave: async (body) => {
      saved.push(body);
    },
  },
} satisfies Meta<typeof RegisterForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A new contact: defaults Ativo on and channel WhatsApp. */
export const NewContact: Story = {};

/** The server refuses a field the form cannot check (the phone of an active room). */
export const ServerRejects: Story = {
  args: {
    onSave: async () => {
      throw new ApiError(400, { error: 'validation_failed', errorMessage: 'Verifique os campos', fields: [{ field: 'phone', message: 'O telefone não pode ser alterado enquanto o contato tiver um atendimento ativo.' }] }, '');
    },
  },
};

/** A failure that is not about a field: the 'Erro' dialog. */
export const ServerFails: Story = {
  args: {
    onSave: async () => {
      throw new ApiError(409, { error: 'conflict', errorMessage: 'Já existe um contato com este telefone.' }, '');
    },
  },
};

/** Editing a contact with an active room, as an agent holding the contacts permission. */
export const EditLockedPhone: Story = {
  args: {
    view: storyView('contacts', { admin: false }),
    mode: 'edit',
    record: { id: 'c1', displayName: 'Maria Souza', phone: '5511999990001', channels: ['whatsapp'], active: true, phoneLocked: true, email: null },
  },
};

/** View mode: everything read-only, no save button. */
export const Show: Story = {
  args: { mode: 'show', record: { id: 'c1', displayName: 'Maria Souza', phone: '5511999990001', channels: ['whatsapp', 'webchat'], active: true } },
};

/** A department: weekday slots (time), the agent-selection rule, rules table and the ordered agents. */
export const Department: Story = {
  args: { view: storyView('departaments'), mode: 'create' },
};

/** A new agent: no current password, so no 'Deixe em branco para manter a senha atual'. */
export const NewAgent: Story = {
  args: { view: storyView('agents'), mode: 'create' },
};

/** Editing an agent: the password stays empty, and a blank one keeps the current. */
export const EditAgent: Story = {
  args: { view: storyView('agents'), mode: 'edit', record: { id: 'u1', displayName: 'Amanda Agente', email: 'amanda@exemplo.com.br', active: true } },
};
