import type { Meta, StoryObj } from '@storybook/react';
import { WidgetHarness } from './WidgetHarness';

const meta = { title: 'Cadastros/Widgets/Switch', component: WidgetHarness } satisfies Meta<typeof WidgetHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 'Ativo' starts on (schema default). */
export const On: Story = {
  args: { schema: { type: 'object', properties: { active: { type: 'boolean', title: 'Ativo', default: true } } }, uiSchema: { active: { 'ui:widget': 'switch' } } },
};

/** A switch a non-admin may not change. */
export const Locked: Story = {
  args: {
    schema: { type: 'object', properties: { blockedSending: { type: 'boolean', title: 'Envio de mensagens' } } },
    uiSchema: { blockedSending: { 'ui:widget': 'switch', 'ui:disabled': true, 'ui:options': { lockedHint: 'Somente administradores podem alterar este campo.' } } },
    formData: { blockedSending: true },
  },
};
