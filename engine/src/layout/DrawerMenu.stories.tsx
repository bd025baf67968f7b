import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import Paper from '@mui/material/Paper';
import { APP_ROUTES } from '@atendimento/schemas/app-routes';
import { DrawerMenu } from './DrawerMenu';
import { withShell } from '../stories/StoryShell';
import { adminUser, agentUser, storyConfig, supervisorUser } from '../stories/fixtures';
import { messages, type User } from '@atendimento/schemas';
import type { FakeCall } from '../stories/fakeApi';

type Props = Parameters<typeof DrawerMenu>[0];

/** The drawer in a fixed-width paper, keeping its own open state as AppLayout does. */
function Harness(props: Props) {
  const [open, setOpen] = useState(props.open);
  return (
    <Paper square data-testid="drawer" data-open={String(open)} sx={{ width: open ? 248 : 64, height: '100vh', overflow: 'hidden', transition: 'width 200ms' }}>
      <DrawerMenu
        {...props}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          props.onOpenChange(next);
        }}
      />
    </Paper>
  );
}

/** PATCH /api/profile answers the agent with followMe applied. */
const saveFollowMe = (user: User) => (call: FakeCall) => ({
  body: { data: { ...user, claims: { ...user.claims, followMe: (call.body as { followMe: boolean }).followMe } } },
});

const meta = {
  title: 'Moldura/Menu lateral',
  component: DrawerMenu,
  decorators: [withShell],
  render: (args) => <Harness {...args} />,
  args: {
    user: agentUser,
    config: storyConfig(),
    routes: APP_ROUTES,
    open: true,
    onOpenChange: () => undefined,
    onLogout: () => undefined,
    loadOnlineAgents: async () => [
      { id: 'u-admin', displayName: 'Ana Administradora', email: 'admin@acme.test', photoUrl: null, status: 'online' },
      { id: 'u-supervisor', displayName: 'Sérgio Supervisor', email: 'supervisor@acme.test', photoUrl: null, status: 'ausente' },
    ],
  },
  parameters: { shell: { path: '/', api: { 'PATCH /api/profile': saveFollowMe(agentUser) } } },
} satisfies Meta<typeof DrawerMenu>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An agent: the service view, the queues (tenant claim) and fixed messages; Siga-me is allowed. */
export const Agent: Story = {};

/** A supervisor holding the 'dashboard' permission also sees Dashboard. */
export const Supervisor: Story = { args: { user: supervisorUser } };

/** An admin sees every admin screen; tenant-claim screens still need the tenant claim. */
export const Admin: Story = { args: { user: adminUser }, parameters: { shell: { path: '/contacts' } } };

/** The tenant hides the queues view. */
export const HiddenView: Story = { args: { config: storyConfig({ hiddenViews: ['queues'] }) } };

/** Tenant claim hideRightMenus: no 'Agentes Online', 'Siga-me' or 'Novidades'. */
export const HideRightMenus: Story = { args: { config: storyConfig({ claims: { allowFollowMe: true, queues: true, hideRightMenus: true } }) } };

/** Tenant claim logoutLast: 'Sair' moves to the end. */
export const LogoutLast: Story = { args: { config: storyConfig({ claims: { allowFollowMe: true, queues: true, logoutLast: true } }) } };

/** Follow-me on: 'Siga-me' is marked active. */
export const FollowMeActive: Story = { args: { user: { ...agentUser, claims: { allowFollowMe: true, followMe: true } } } };

/** The tenant does not allow follow-me: no 'Siga-me'. */
export const TenantWithoutFollowMe: Story = { args: { config: storyConfig({ claims: { queues: true } }) } };

/** Collapsed (how it starts): icons only, names in tooltips. */
export const Collapsed: Story = { args: { open: false } };

/** Follow-me without a WhatsApp number in the profile: the server refuses and says why. */
export const FollowMeWithoutWhatsapp: Story = {
  parameters: {
    shell: {
      path: '/',
      api: { 'PATCH /api/profile': { status: 400, body: { error: 'follow_me_needs_whatsapp', errorMessage: messages.chatServer.followMeNeedsWhatsapp } } },
    },
  },
};
