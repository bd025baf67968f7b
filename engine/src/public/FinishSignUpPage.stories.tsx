import type { Meta, StoryObj } from '@storybook/react';
import { FinishSignUpPage } from './FinishSignUpPage';
import { STORAGE_KEYS } from '../api/session';
import { withShell } from '../stories/StoryShell';
import { agentUser } from '../stories/fixtures';
import { errorAnswer, sessionAnswer, slow } from '../stories/sessions';

const path = '/finishSignUp?token=link-123';
const complete = { 'POST /api/auth/email-link/complete': sessionAnswer(agentUser) };

const meta = {
  title: 'Público/Concluir acesso',
  component: FinishSignUpPage,
  decorators: [withShell],
  parameters: { shell: { path, pattern: '/finishSignUp', api: complete } },
} satisfies Meta<typeof FinishSignUpPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Opened on another browser: no remembered e-mail, so the screen asks for it. */
export const AskForEmail: Story = {};

/** Opened where the link was requested: the remembered e-mail completes at once ('validando acesso'). */
export const RememberedEmail: Story = {
  parameters: {
    shell: { path, pattern: '/finishSignUp', storage: { [STORAGE_KEYS.emailForSignIn]: 'agente@acme.test' }, api: { 'POST /api/auth/email-link/complete': slow(sessionAnswer(agentUser)) } },
  },
};

/** A used or expired link goes to /linkexpirado. */
export const ExpiredLink: Story = {
  parameters: {
    shell: {
      path,
      pattern: '/finishSignUp',
      storage: { [STORAGE_KEYS.emailForSignIn]: 'agente@acme.test' },
      api: { 'POST /api/auth/email-link/complete': errorAnswer(400, 'link_expired', 'Link de acesso inválido. Link expirado ou já foi usado!') },
    },
  },
};

/** The e-mail typed does not match the link. */
export const WrongEmail: Story = {
  parameters: {
    shell: { path, pattern: '/finishSignUp', api: { 'POST /api/auth/email-link/complete': errorAnswer(400, 'link_invalid', 'Link de acesso inválido!') } },
  },
};

/** Opened without a token. */
export const NoToken: Story = {
  parameters: { shell: { path: '/finishSignUp', api: complete } },
};
