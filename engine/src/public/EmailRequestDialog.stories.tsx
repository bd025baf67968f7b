import type { Meta, StoryObj } from '@storybook/react';
import { messages } from '@atendimento/schemas';
import { EmailRequestDialog } from './EmailRequestDialog';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Público/Pedido de e-mail',
  component: EmailRequestDialog,
  decorators: [withShell],
  args: {
    open: true,
    title: messages.shell.recoveryTitle,
    text: messages.shell.recoveryText,
    onClose: () => undefined,
    onSubmit: async (): Promise<string> => messages.auth.recoverySent,
  },
  parameters: { shell: { path: '/login' } },
} satisfies Meta<typeof EmailRequestDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The forgot-password dialog. */
export const PasswordRecovery: Story = {};

/** The e-mailed sign-in link, with the address already typed on the sign-in form. */
export const SignInLink: Story = { args: { title: messages.shell.emailLink, text: messages.shell.emailLinkText, initialEmail: 'agente@acme.test' } };

/** The sending failed (the seed's generic text). */
export const Failure: Story = {
  args: {
    onSubmit: async () => {
      throw new Error(messages.auth.internalError);
    },
  },
};
