import type { Meta, StoryObj } from '@storybook/react';
import Typography from '@mui/material/Typography';
import { Boot } from './Boot';
import { loadAppConfig } from './loadAppConfig';
import { withShell } from '../stories/StoryShell';
import { storyConfig } from '../stories/fixtures';

const CONFIG = 'GET /api/master/tenants/current/appConfig';
// No pause between attempts in stories: the 5 attempts run at once.
const load = () => loadAppConfig({ delayMs: 0 });

const meta = {
  title: 'Início/Boot',
  component: Boot,
  decorators: [withShell],
  args: {
    load,
    children: (config) => (
      <Typography component="p" sx={{ p: 2 }}>
        App de {config.name}
      </Typography>
    ),
  },
  parameters: { shell: { api: { [CONFIG]: { body: { data: storyConfig() } } } } },
} satisfies Meta<typeof Boot>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The configuration arrives: the app renders with it. */
export const Ready: Story = {};

/** The server answers 403: the tenant is inactive. */
export const InactiveTenant: Story = {
  parameters: { shell: { api: { [CONFIG]: { status: 403, body: { error: 'tenant_inactive', errorMessage: 'Tenant não ativo (contactar administrador)' } } } } },
};

/** The server fails twice, then answers. */
export const RecoversOnThirdAttempt: Story = {
  parameters: {
    shell: {
      api: {
        [CONFIG]: (() => {
          let calls = 0;
          return () => (++calls < 3 ? { status: 502, body: {} } : { body: { data: storyConfig() } });
        })(),
      },
    },
  },
};

/** The server never answers properly. */
export const Unreachable: Story = {
  parameters: { shell: { api: { [CONFIG]: { status: 503, body: {} } } } },
};
