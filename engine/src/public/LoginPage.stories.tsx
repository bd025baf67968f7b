import type { Meta, StoryObj } from '@storybook/react';
import { LoginPage } from './LoginPage';
import { withShell } from '../stories/StoryShell';
import { agentUser, storyConfig } from '../stories/fixtures';
import { errorAnswer, sessionAnswer } from '../stories/sessions';

const meta = {
  title: 'Público/Entrar',
  component: LoginPage,
  decorators: [withShell],
  args: { prefetch: () => undefined },
  parameters: {
    shell: {
      path: '/login',
      api: {
        'POST /api/auth/login': sessionAnswer(agentUser),
        'POST /api/auth/password-recovery': { body: { data: { message: 'Email enviado com sucesso!' } } },
        'POST /api/auth/email-link': { body: { data: { message: 'E-mail de acesso enviado' } } },
      },
    },
  },
} satisfies Meta<typeof LoginPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out, tenant without Google sign-in. */
export const Default: Story = {};

/** The tenant has the googleSignIn claim: the Google button shows. */
export const WithGoogle: Story = {
  parameters: { shell: { ...meta.parameters.shell, config: storyConfig({ claims: { googleSignIn: true, publicRegister: true } }) } },
};

/** The server refuses the password. */
export const WrongPassword: Story = {
  parameters: {
    shell: { path: '/login', api: { 'POST /api/auth/login': errorAnswer(401, 'invalid_credentials', 'Credenciais inválidas!') } },
  },
};

/** A user who must choose a new password goes to /profile after signing in. */
export const MustChangePassword: Story = {
  parameters: { shell: { path: '/login', api: { 'POST /api/auth/login': sessionAnswer({ ...agentUser, updatePass: true }) } } },
};

/** Without publicRegister the public menu has no 'Cadastro'; a custom logo replaces the tenant name. */
export const NoPublicRegister: Story = {
  parameters: {
    shell: { path: '/login', config: storyConfig({ claims: {}, assets: { logoUrl: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%22160%22 height=%2248%22%3E%3Crect width=%22160%22 height=%2248%22 rx=%228%22 fill=%22%231976D2%22/%3E%3C/svg%3E', backgroundUrl: null } }) },
  },
};
