import type { Meta, StoryObj } from '@storybook/react';
import { useState } from 'react';
import { QueueChips } from './QueueChips';

const counts = { deptovendas: 7, deptosuporte: 4, deptofinanceiro: 2, deptologistica: 1 };
const names = { deptovendas: 'Vendas', deptosuporte: 'Suporte', deptofinanceiro: 'Financeiro', deptologistica: 'Logística' };

/** Holds the chosen queue, as the chat list panel does. */
function Stateful({ initial = null }: { initial?: string | null }) {
  const [selected, setSelected] = useState<string | null>(initial);
  return (
    <div style={{ width: 360 }}>
      <QueueChips counts={counts} names={names} selected={selected} onSelect={setSelected} />
      <output data-selected>{selected ?? ''}</output>
    </div>
  );
}

const meta: Meta<typeof Stateful> = { title: 'Console/QueueChips', component: Stateful };
export default meta;
type Story = StoryObj<typeof Stateful>;

/** Two queues, 'Ver mais' for the rest. */
export const Default: Story = {};
/** A queue past the first two, chosen: it stays shown, with 'Limpar filtro'. */
export const Chosen: Story = { args: { initial: 'deptologistica' } };
