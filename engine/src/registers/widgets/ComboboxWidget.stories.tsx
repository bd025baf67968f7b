import type { Meta, StoryObj } from '@storybook/react';
import type { RJSFSchema } from '@rjsf/utils';
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

/** A client's CPF/CNPJ: an entry that breaks the item's pattern is refused with its message ('CGC inválido'). */
export const ItemRule: Story = {
  args: {
    // `errorMessage` is ajv-errors' keyword (the registers' schemas carry it), outside JSON Schema's type.
    schema: { type: 'object', properties: { CGC: { type: 'array', title: 'CPF/CNPJ', minItems: 1, items: { type: 'string', maxLength: 20, pattern: '^[0-9.\\-]*[0-9][0-9.\\-]*$', errorMessage: 'CGC inválido' } as RJSFSchema } } },
    uiSchema: { CGC: { 'ui:widget': 'combobox' } },
  },
};
