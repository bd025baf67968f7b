import type { Meta, StoryObj } from '@storybook/react';
import { MessagePage } from './MessagePage';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Público/Mensagens',
  component: MessagePage,
  decorators: [withShell],
  args: { kind: 'linkExpired' },
  parameters: { shell: { path: '/linkexpirado' } },
} satisfies Meta<typeof MessagePage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** /linkexpirado: an e-mailed link that was used or is too old. */
export const LinkExpired: Story = {};

/** /404. */
export const NotFound: Story = { args: { kind: 'notFound' }, parameters: { shell: { path: '/404' } } };
