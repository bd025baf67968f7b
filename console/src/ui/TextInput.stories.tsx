import type { Meta, StoryObj } from '@storybook/react';
import { useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import { TextInput } from './TextInput';

/** A labelled field with a prefix and the rule the new-contact form applies, and a search field. */
function Fields({ initial = '' }: { initial?: string }) {
  const [phone, setPhone] = useState(initial);
  const [text, setText] = useState('');
  const invalid = phone !== '' && phone.replace(/\D/g, '').length < 10;
  return (
    <div style={{ width: 360, display: 'flex', flexDirection: 'column', gap: 8 }}>
      <TextInput
        label="Telefone"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        error={invalid}
        helperText={invalid ? 'Telefone inválido' : undefined}
        startAdornment={<InputAdornment position="start">+55</InputAdornment>}
        inputProps={{ inputMode: 'tel' }}
      />
      <TextInput placeholder="Buscar" value={text} onChange={(e) => setText(e.target.value)} inputProps={{ 'aria-label': 'Buscar chats' }} />
    </div>
  );
}

const meta: Meta<typeof Fields> = { title: 'Console/TextInput', component: Fields };
export default meta;
type Story = StoryObj<typeof Fields>;

export const Empty: Story = {};
/** A number too short: the field is marked invalid and says why. */
export const Invalid: Story = { args: { initial: '1199' } };
