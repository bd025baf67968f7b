import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Editor JSON', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A flow's definition edited as JSON text. */
export const FlowDefinition: Story = {
  args: {
    schema: { type: 'object', properties: { definition: { type: 'object', title: 'Definição' } } },
    uiSchema: { definition: { 'ui:field': 'jsonEditor' } },
    formData: { definition: { start: 'menu', steps: [] } },
  },
};

/** Empty: nothing is sent until something that parses is typed. */
export const Empty: Story = {
  args: { ...FlowDefinition.args, formData: {} },
};
