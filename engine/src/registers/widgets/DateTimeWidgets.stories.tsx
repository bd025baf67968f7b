import type { Meta, StoryObj } from '@storybook/react';
import type { RJSFSchema } from '@rjsf/utils';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Data e hora', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A contingency's start: date typed DD/MM/AAAA, hour HH:MM (24 h), both required. */
export const DateAndTime: Story = {
  args: {
    schema: {
      type: 'object',
      required: ['startDate', 'startHour'],
      properties: {
        startDate: { type: 'string', title: 'Data inicial', format: 'date', errorMessage: { required: 'Campo obrigatório', default: 'valor inválido' } },
        startHour: { type: 'string', title: 'Hora inicial', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', errorMessage: { required: 'Campo obrigatório', default: 'Formato Invalido (23:59)' } },
      },
    } as RJSFSchema,
    uiSchema: { startDate: { 'ui:widget': 'date' }, startHour: { 'ui:widget': 'time' } },
  },
};

/** A stored record: YYYY-MM-DD shows as DD/MM/AAAA. */
export const Filled: Story = {
  args: { ...DateAndTime.args, formData: { startDate: '2026-12-24', startHour: '18:30' } },
};
