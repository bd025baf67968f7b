import type { Meta, StoryObj } from '@storybook/react';
import IconButton from '@mui/material/IconButton';
import FilterListIcon from '@mui/icons-material/FilterList';
import SendIcon from '@mui/icons-material/Send';
import { Hint } from './Hint';

/** An icon button with its hint, as the chat list and the drawer show them. */
function HintedButtons({ placement }: { placement?: 'bottom' | 'right' }) {
  return (
    <div style={{ display: 'flex', gap: 8, padding: 24 }}>
      <Hint title="Filtros" placement={placement}>
        <IconButton aria-label="Filtros">
          <FilterListIcon />
        </IconButton>
      </Hint>
      <Hint title="Iniciar conversa" placement={placement}>
        <IconButton color="primary">
          <SendIcon />
        </IconButton>
      </Hint>
    </div>
  );
}

const meta: Meta<typeof HintedButtons> = { title: 'Console/Hint', component: HintedButtons };
export default meta;
type Story = StoryObj<typeof HintedButtons>;

/** Below the button (the chat list's filters and send). */
export const Below: Story = {};
/** Beside it (the collapsed drawer's routes). */
export const Beside: Story = { args: { placement: 'right' } };
