import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../../stories/StoryShell';
import { WidgetHarness } from './WidgetHarness';

const meta = {
  title: 'Cadastros/Widgets/Lista ordenável',
  component: WidgetHarness,
  decorators: [withShell],
  parameters: {
    shell: {
      api: {
        'GET /api/lookup/agents': {
          body: { data: [{ id: 'u-ana', label: 'Ana Agente' }, { id: 'u-bruno', label: 'Bruno Souza' }, { id: 'u-carla', label: 'Carla Dias' }] },
        },
      },
    },
  },
} satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A department's orderedAgents: drag a row or use the arrows. */
export const OrderedAgents: Story = {
  args: {
    schema: { type: 'object', properties: { orderedAgents: { type: 'array', title: 'Ordem dos agentes', items: { type: 'string' } } } },
    uiSchema: { orderedAgents: { 'ui:widget': 'draggableList', 'ui:options': { resource: 'agents' } } },
    formData: { orderedAgents: ['u-ana', 'u-bruno', 'u-carla'] },
  },
};

/** No agents yet. */
export const Empty: Story = {
  args: { ...OrderedAgents.args, formData: { orderedAgents: [] } },
};
