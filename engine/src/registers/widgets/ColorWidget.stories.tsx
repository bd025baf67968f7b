import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Cor', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A tag's colour: #RRGGBBAA, the tags' default #1976D2FF (seed 000 §9). */
export const TagColor: Story = {
  args: {
    schema: { type: 'object', properties: { color: { type: 'string', title: 'Cor', default: '#1976D2FF' } } },
    uiSchema: { color: { 'ui:widget': 'color' } },
  },
};

/** Read-only: neither the picker nor the text box change it. */
export const ReadOnly: Story = {
  args: { ...TagColor.args, uiSchema: { color: { 'ui:widget': 'color', 'ui:readonly': true } }, formData: { color: '#FF000080' } },
};
