import type { Meta, StoryObj } from '@storybook/react';
import type { User } from '@atendimento/schemas';
import { ProfilePage } from './ProfilePage';
import { withShell } from '../stories/StoryShell';
import { agentUser, storyConfig } from '../stories/fixtures';
import { errorAnswer } from '../stories/sessions';
import type { FakeCall } from '../stories/fakeApi';

/** PATCH /api/profile answers the user with the changes applied (passwords are not echoed). */
const saveProfile = (user: User) => (call: FakeCall) => {
  const { password: _password, confirmPassword: _confirm, currentPassword: _current, ...changes } = call.body as Record<string, unknown>;
  return { body: { data: { ...user, ...changes, updatePass: false } } };
};

const withFollowMe = { ...agentUser, whatsapp: '5511987654321' };

const meta = {
  title: 'Páginas/Perfil',
  component: ProfilePage,
  decorators: [withShell],
  args: { user: withFollowMe, config: storyConfig() },
  parameters: { shell: { path: '/profile', api: { 'PATCH /api/profile': saveProfile(withFollowMe) } } },
} satisfies Meta<typeof ProfilePage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Tenant and user both allow follow-me: the WhatsApp field shows, masked. */
export const Default: Story = {};

/** The tenant does not allow follow-me: no WhatsApp field. */
export const TenantWithoutFollowMe: Story = { args: { config: storyConfig({ claims: { publicRegister: true } }) } };

/** The user does not have allowFollowMe: no WhatsApp field. */
export const UserWithoutFollowMe: Story = {
  args: { user: { ...agentUser, claims: {} } },
  parameters: { shell: { api: { 'PATCH /api/profile': saveProfile({ ...agentUser, claims: {} }) } } },
};

/** First access (updatePass): the banner asks for a new password. */
export const FirstAccess: Story = {
  args: { user: { ...agentUser, updatePass: true } },
  parameters: { shell: { api: { 'PATCH /api/profile': saveProfile(agentUser) } } },
};

/** Arrived from a password-recovery link: the banner says recovery, not first access. */
export const PasswordRecovery: Story = {
  args: { user: { ...agentUser, updatePass: true, updatePassReason: 'recovery' } },
  parameters: { shell: { api: { 'PATCH /api/profile': saveProfile(agentUser) } } },
};

/** A self-registered account whose e-mail a link confirmed: the sign-up password was discarded, and the page says so. */
export const EmailConfirmed: Story = {
  args: { user: { ...agentUser, updatePass: true, updatePassReason: 'emailConfirmed' } },
  parameters: { shell: { api: { 'PATCH /api/profile': saveProfile(agentUser) } } },
};

/** An account with a password: changing it asks for the current one ('Senha atual'). */
export const ChangePassword: Story = {
  args: { user: { ...agentUser, hasPassword: true } },
  parameters: { shell: { api: { 'PATCH /api/profile': saveProfile({ ...agentUser, hasPassword: true }) } } },
};

/** The current password typed is not the account's: the server says so under 'Senha atual'. */
export const WrongCurrentPassword: Story = {
  args: { user: { ...agentUser, hasPassword: true } },
  parameters: {
    shell: {
      api: { 'PATCH /api/profile': errorAnswer(400, 'validation_failed', 'Dados inválidos: Senha atual incorreta', [{ field: 'currentPassword', message: 'Senha atual incorreta' }]) },
    },
  },
};

/** The server refuses the change. */
export const ServerRefuses: Story = {
  parameters: {
    shell: {
      api: { 'PATCH /api/profile': errorAnswer(400, 'validation', 'Dados inválidos: displayName', [{ field: 'displayName', message: 'Informe o nome de exibição' }]) },
    },
  },
};
