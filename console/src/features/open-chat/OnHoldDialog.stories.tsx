import type { Meta, StoryObj } from '@storybook/react';
import { OnHoldDialog } from './OnHoldDialog';
import { StoryConsole } from '../../fixtures/StoryConsole';
import type { FixedMessage } from '../../model/chatApi';

const confirmed: string[] = [];
/** What the stories' onConfirm received (specs assert on it). */
export function confirmedHolds(): string[] {
  return confirmed;
}

const items: FixedMessage[] = [
  { id: 'fm-aguarde', message: 'Por favor, aguarde um instante enquanto verifico.', tag: 'aguarde', active: true },
  { id: 'fm-sistema', message: 'Estou consultando o sistema, já retorno.', tag: 'sistema', active: true },
];

const meta: Meta<typeof OnHoldDialog> = {
  title: 'Console/OnHoldDialog',
  component: OnHoldDialog,
  args: {
    open: true,
    items,
    onCancel: () => undefined,
    onConfirm: (message) => {
      confirmed.push(message);
      return true;
    },
  },
  decorators: [(Story) => (
    <StoryConsole>
      <Story />
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof OnHoldDialog>;

/** The agent's fixed messages to choose from. */
export const Choose: Story = {};

/** No fixed message registered. */
export const Empty: Story = { args: { items: [] } };
