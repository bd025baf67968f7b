import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Combobox', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A contact's contexts: free entries, Enter inserts ('Pressione Enter para inserir'). */
export const FreeEntries: Story = {
  args: {
    schema: { type: 'object', properties: { contexts: { type: 'array', title: 'Contextos', items: { type: 'string' } } } },
    uiSchema: { contexts: { 'ui:widget': 'combobox' } },
    formData: { contexts: ['orcamento'] },
  },
};

/** Entries suggested from the schema's enum. */
export const Suggested: Story = {
  args: {
    schema: { type: 'object', properties: { codes: { type: 'array', title: 'Códigos', uniqueItems: true, items: { type: 'string', enum: ['V01', 'V02', 'V03'] } } } },
    uiSchema: { codes: { 'ui:widget': 'combobox' } },
  },
};
