import type { Meta, StoryObj } from '@storybook/react';
import { APP_ROUTES } from '@atendimento/schemas/app-routes';
import { AppToolbar } from './AppToolbar';
import { withShell } from '../stories/StoryShell';
import { withPresence } from '../stories/presence';
import { adminUser, agentUser, storyConfig } from '../stories/fixtures';

const route = (path: string) => APP_ROUTES.find((candidate) => candidate.path === path);

const meta = {
  title: 'Moldura/Barra superior',
  component: AppToolbar,
  decorators: [withPresence, withShell],
  args: { route: route('/'), user: agentUser, config: storyConfig() },
  parameters: { shell: { path: '/', user: agentUser } },
} satisfies Meta<typeof AppToolbar>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The service view: its icon and name 'Atendimento', and the status bar. */
export const ServiceView: Story = {};

/** An admin on the contacts register. */
export const AdminOnContacts: Story = { args: { route: route('/contacts'), user: adminUser }, parameters: { shell: { user: adminUser } } };

/** On a phone the menu button opens the drawer. */
export const WithMenuButton: Story = { args: { onMenuClick: () => undefined }, parameters: { viewport: { defaultViewport: 'mobile1' } } };
