import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import type { FakeCall } from '../../stories/fakeApi';
import { WidgetHarness } from './WidgetHarness';

const AGENTS = [
  { id: 'u-ana', label: 'Ana Agente' },
  { id: 'u-bruno', label: 'Bruno Souza' },
  { id: 'u-carla', label: 'Carla Anaya', active: false },
];

/** GET /api/lookup/agents: by `q` (name contains) or by `ids` (titles of saved chips). */
function lookupAgents(call: FakeCall) {
  const query = new URLSearchParams(call.path.split('?')[1] ?? '');
  const q = query.get('q')?.toLowerCase();
  const ids = query.get('ids') ? (JSON.parse(query.get('ids')!) as string[]) : null;
  const data = AGENTS.filter((agent) => (ids ? ids.includes(agent.id) : q ? agent.label.toLowerCase().includes(q) : true));
  return { body: { data } };
}

const meta = {
  title: 'Cadastros/Widgets/Autocomplete',
  component: WidgetHarness,
  decorators: [withShell],
  parameters: { shell: { api: { 'GET /api/lookup/agents': lookupAgents } } },
} satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A department's agents: several ids as chips, titled by a lookup of the saved ids. */
export const Several: Story = {
  args: {
    schema: { type: 'object', properties: { agents: { type: 'array', title: 'Agentes', items: { type: 'string' } } } },
    uiSchema: { agents: { 'ui:widget': 'autocomplete', 'ui:options': { resource: 'agents', debounce: 0 } } },
    formData: { agents: ['u-ana'] },
  },
};

/** One id (a contact's agent), nothing chosen yet: 'Digite para buscar (min. 3)'. */
export const One: Story = {
  args: {
    schema: { type: 'object', properties: { agent: { type: 'string', title: 'Agente' } } },
    uiSchema: { agent: { 'ui:widget': 'autocomplete', 'ui:options': { resource: 'agents', debounce: 0 } } },
  },
};
