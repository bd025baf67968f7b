import type { Meta, StoryObj } from '@storybook/react';
import { PasswordField } from './PasswordField';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Público/Campo de senha',
  component: PasswordField,
  decorators: [withShell],
  args: { label: 'Senha', name: 'password', defaultValue: 'segredo1', fullWidth: true },
} satisfies Meta<typeof PasswordField>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Hidden by default; the eye button shows it. */
export const Default: Story = {};

/** With a validation message. */
export const WithError: Story = { args: { defaultValue: '123', error: true, helperText: 'A senha deve conter pelo menos 6 caracteres' } };
