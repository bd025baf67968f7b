import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Tabela de dados', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A negotiation's vehicles: rows of small records, not reorderable. */
export const Rows: Story = {
  args: {
    schema: {
      type: 'object',
      properties: {
        vehicles: { type: 'array', title: 'Veículos', items: { type: 'object', properties: { chassis: { type: 'string', title: 'Chassi' }, year: { type: 'integer', title: 'Ano' } } } },
      },
    },
    uiSchema: { vehicles: { 'ui:field': 'dataTable' } },
    formData: { vehicles: [{ chassis: '9BWZZZ377VT004251', year: 2020 }] },
  },
};

/** A nested object drawn as its own sub-form. */
export const SubForm: Story = {
  args: {
    schema: {
      type: 'object',
      properties: { address: { type: 'object', title: 'Endereço', properties: { city: { type: 'string', title: 'Cidade' }, state: { type: 'string', title: 'UF' } } } },
    },
    uiSchema: { address: { 'ui:field': 'schemaForm' } },
    formData: { address: { city: 'Curitiba' } },
  },
};
