import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { storyUser } from '../../stories/fixtures';
import { RegisterAdmin } from '../stories/RegisterAdmin';
import { fakeRegister } from '../stories/fakeRegister';
import { definitionsRoute, storyView } from '../stories/views';

const departments = [
  {
    id: 'comercial', displayName: 'Comercial', active: true, agentSelectionRule: 'load', agents: [], supervisors: [],
    queueMessages: [
      { command: 'sendMessage', arg: 'Ainda está aí? Podemos ajudar em algo mais?', timeInMinutes: 5, repeat: false },
      { command: 'closeChat', timeInMinutes: 30, repeat: false },
    ],
  },
  { id: 'suporte', displayName: 'Suporte Técnico', active: true, agentSelectionRule: 'wait', agents: [], supervisors: [], queueMessages: [] },
];

const meta = {
  title: 'Cadastros/Regras automáticas do departamento',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['departaments'] },
  parameters: {
    shell: {
      path: '/departaments',
      pattern: '/*',
      user: storyUser({ claims: { admin: true } }),
      api: {
        ...definitionsRoute(storyView('departaments')),
        ...fakeRegister('departaments', departments),
      },
    },
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Two departments: 'Regras' on a row opens its automatic message rules (one with two rules, one with none). */
export const DepartmentsWithRules: Story = {};
