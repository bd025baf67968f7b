import type { Meta, StoryObj } from '@storybook/react';
import { RegisterPage } from './RegisterPage';
import { withShell } from '../stories/StoryShell';
import { storyUser } from '../stories/fixtures';
import { errorAnswer, sessionAnswer, slow } from '../stories/sessions';

const newUser = storyUser({ id: 'u-novo', displayName: 'Nina Nova', email: 'nina@acme.test', claims: {} });

const meta = {
  title: 'Público/Cadastro',
  component: RegisterPage,
  decorators: [withShell],
  args: { prefetch: () => undefined },
  parameters: { shell: { path: '/register', api: { 'POST /api/users': sessionAnswer(newUser) } } },
} satisfies Meta<typeof RegisterPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The empty form of a tenant with publicRegister. */
export const Default: Story = {};

/** The server takes a moment: the seed's loading text shows. */
export const Slow: Story = {
  parameters: { shell: { path: '/register', api: { 'POST /api/users': slow(sessionAnswer(newUser)) } } },
};

/** The e-mail already has an account: the server's message shows in the alert and under the field. */
export const EmailInUse: Story = {
  parameters: {
    shell: {
      path: '/register',
      api: { 'POST /api/users': errorAnswer(409, 'email_in_use', 'Este e-mail já está cadastrado.', [{ field: 'email', message: 'Este e-mail já está cadastrado.' }]) },
    },
  },
};

/** The server cannot be reached: the seed's generic text. */
export const Offline: Story = {
  parameters: { shell: { path: '/register', api: { 'POST /api/users': () => Promise.reject(new TypeError('Failed to fetch')) } } },
};
