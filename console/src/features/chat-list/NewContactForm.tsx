import { useState, type FormEvent } from 'react';
import { Box, IconButton, InputAdornment } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { hasTenantClaim, messages, type CreateRoomAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { Hint } from '../../ui/Hint';
import { TextInput } from '../../ui/TextInput';

/** Phone as sent for a new contact: '+55' prefix with tenant claim fixedDDI, else '+' (seed 001 §5). */
function newContactPhone(typed: string, fixedDDI: boolean): string {
  const digits = typed.replace(/\D/g, '');
  return fixedDDI ? `+55${digits.replace(/^55(?=\d{10,11}$)/, '')}` : `+${digits}`;
}

/** Nome, Telefone and send: starts a chat with a new contact (POST /api/rooms). */
export function NewContactForm({ onCreated }: { onCreated: (room: Room) => void }) {
  const { api, appConfig, notify } = useConsole();
  const fixedDDI = hasTenantClaim(appConfig, 'fixedDDI');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<{ name?: string; phone?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const digits = phone.replace(/\D/g, '');
    const next = {
      name: name.trim() ? undefined : messages.validation.displayNameRequired,
      phone: digits.length >= (fixedDDI ? 10 : 8) ? undefined : messages.validation.phoneInvalid,
    };
    setErrors(next);
    if (next.name || next.phone) return;
    setBusy(true);
    try {
      const { body } = await api.request<CreateRoomAnswer>('/api/rooms', { method: 'POST', body: { contact: { displayName: name.trim(), phone: newContactPhone(phone, fixedDDI) } }, notify: false });
      setName('');
      setPhone('');
      onCreated(body.data);
    } catch (err) {
      notify((err as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }} aria-label="Novo contato" noValidate>
      <TextInput label="Nome" value={name} onChange={(e) => setName(e.target.value)} error={Boolean(errors.name)} helperText={errors.name} sx={{ flex: 1 }} />
      <TextInput
        label="Telefone"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        error={Boolean(errors.phone)}
        helperText={errors.phone}
        sx={{ flex: 1 }}
        startAdornment={<InputAdornment position="start">{fixedDDI ? '+55' : '+'}</InputAdornment>}
        inputProps={{ inputMode: 'tel' }}
      />
      <Hint title="Iniciar conversa">
        <span>
          <IconButton type="submit" color="primary" aria-label="Iniciar conversa" disabled={busy}><SendIcon /></IconButton>
        </span>
      </Hint>
    </Box>
  );
}
