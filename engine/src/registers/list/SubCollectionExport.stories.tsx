import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { storyConfig, storyUser } from '../../stories/fixtures';
import { RegisterAdmin } from '../stories/RegisterAdmin';
import { fakeRegister } from '../stories/fakeRegister';
import { definitionsRoute, storyView } from '../stories/views';

const agents = [{ id: 'a1', displayName: 'Agente Um', email: 'um@acme.test', active: true }];
const base = storyConfig();

const meta = {
  title: 'Cadastros/Exportar histórico',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['agents'] },
  parameters: {
    shell: {
      path: '/agents',
      pattern: '/*',
      user: storyUser({ claims: { admin: true }, email: 'admin@acme.test' }),
      config: { ...base, claims: { ...base.claims, enableAgentStatusExporter: true } },
      api: {
        ...definitionsRoute(storyView('agents')),
        ...fakeRegister('agents', agents),
        'POST /api/agents/extractSubCollection': { status: 202, body: { data: { message: 'Exportação solicitada!' } } },
      },
    },
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Agents with the tenant claim enableAgentStatusExporter: 'Exportar histórico' in the toolbar. */
export const WithExporter: Story = {};

/** Without the claim the button is not there (seed 000 §6). */
export const WithoutExporter: Story = {
  // Story parameters merge deeply into the meta's: switch the claim off explicitly.
  parameters: { shell: { config: { ...base, claims: { ...base.claims, enableAgentStatusExporter: false } } } },
};
