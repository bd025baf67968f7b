import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Divisor', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 'Bloqueios' between a contact's fields: a property of type null drawn as a section title. */
export const SectionTitle: Story = {
  args: {
    schema: {
      type: 'object',
      properties: {
        displayName: { type: 'string', title: 'Nome' },
        blocks: { type: 'null', title: 'Bloqueios' },
        blockedSending: { type: 'boolean', title: 'Envio de mensagens' },
      },
    },
    uiSchema: { blocks: { 'ui:field': 'divider' } },
  },
};

/** The title may come from the UI schema instead. */
export const UiTitle: Story = {
  args: { ...SectionTitle.args, uiSchema: { blocks: { 'ui:field': 'divider', 'ui:title': 'Dados do contato' } } },
};
