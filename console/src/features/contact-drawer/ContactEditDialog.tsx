import { useEffect, useState } from 'react';
import {
  Alert, Box, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Divider,
  FormControl, FormControlLabel, FormHelperText, InputLabel, ListItemText, MenuItem, Select, Switch, TextField, Typography,
} from '@mui/material';
import { contactIsBlocked, isAdmin, messages as seedTexts, type ContactEditInput } from '@atendimento/schemas';
import { REGISTERS } from '@atendimento/schemas/registers/catalog';
import { useConsole } from '../../ConsoleContext';
import type { Contact } from '../../model/chat';
import { chatPaths } from '../../model/chatApi';
import { contactActions } from '../../store/consoleStores';
import { texts } from '../../ui/texts';

type EditableContact = Contact & { name?: string | null; phoneLocked?: boolean };
type TextField = 'displayName' | 'name' | 'email' | 'phone';
type SwitchField = 'active' | 'blockedSending' | 'blockedReceiving';

/** Titles and channel options come from the contacts register's schema, the one the server validates with. */
const schema = REGISTERS.get('contacts')?.schema.properties ?? {};
const title = (field: string) => (schema[field]?.title as string | undefined) ?? field;
const channelOptions = ((schema.channels?.items as { oneOf?: { const: string; title: string }[] } | undefined)?.oneOf ?? []).map((o) => ({ id: o.const, label: o.title }));
/** The 'Selecionar Todos' entry's value in the channels select: never a channel id. */
const SELECT_ALL = '__all__';

interface FormState {
  active: boolean;
  blockedSending: boolean;
  blockedReceiving: boolean;
  displayName: string;
  name: string;
  email: string;
  phone: string;
  channels: string[];
}

function stateOf(c: EditableContact): FormState {
  return {
    active: c.active !== false,
    blockedSending: Boolean(c.blockedSending),
    blockedReceiving: Boolean(c.blockedReceiving),
    displayName: c.displayName ?? '',
    name: c.name ?? '',
    email: c.email ?? '',
    phone: c.phone ?? '',
    channels: c.channels ?? [],
  };
}

/** Only what changed: a non-admin never sends the admin-only switches, an untouched phone is never checked against the lock. */
function changes(before: FormState, after: FormState): ContactEditInput {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof FormState)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    const value = after[key];
    out[key] = typeof value === 'string' && value.trim() === '' && key !== 'displayName' ? null : value;
  }
  return out as ContactEditInput;
}

function fieldErrorsOf(error: unknown): Record<string, string> {
  const fields = (error as { fields?: unknown })?.fields;
  if (!Array.isArray(fields)) return {};
  return Object.fromEntries(fields.filter((f): f is { field: string; message: string } => typeof f?.field === 'string').map((f) => [f.field, f.message]));
}

/**
 * 'Editar Contato' (seed 001 §2 "Contact edit form"): the contact of the open chat, read and saved
 * through PATCH /api/rooms/{id}/contact, which validates with the contacts register's schema.
 * Ativo and the blocks (Envio / Recebimento de mensagens) are for admins; the phone is locked
 * while the contact has an active room; a blocked contact opens read-only for non-admins. The
 * server enforces every rule; the form mirrors them and shows its field messages.
 */
export function ContactEditDialog({ open, roomId, onClose }: { open: boolean; roomId: string; onClose: () => void }) {
  const { api, stores, user, notify } = useConsole();
  const admin = isAdmin(user);
  const [contact, setContact] = useState<EditableContact | null>(null);
  const [form, setForm] = useState<FormState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!open) return;
    let live = true;
    setContact(null);
    setForm(null);
    setError(null);
    setFieldErrors({});
    api
      .request<{ data: EditableContact }>(chatPaths.roomContact(roomId), { notify: false })
      .then(({ body }) => {
        if (!live) return;
        setContact(body.data);
        setForm(stateOf(body.data));
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : seedTexts.contact.updateFailed));
    return () => {
      live = false;
    };
  }, [api, open, roomId]);

  const locked = Boolean(contact && contactIsBlocked(contact) && !admin);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => (f ? { ...f, [key]: value } : f));
    // The field's message goes once it is edited; the next save checks it again.
    setFieldErrors((e) => (key in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)) : e));
  };

  const submit = async () => {
    if (!contact || !form) return;
    const body = changes(stateOf(contact), form);
    if (Object.keys(body).length === 0) return onClose();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      const { body: answer } = await api.request<{ meta?: { message?: string }; data: EditableContact }>(chatPaths.roomContact(roomId), { method: 'PATCH', body, notify: false });
      contactActions.upsert(stores.contacts, [answer.data]);
      notify(answer.meta?.message ?? seedTexts.contact.updated, 'success');
      onClose();
    } catch (e) {
      notify(seedTexts.contact.updateFailed, 'error');
      setError(e instanceof Error ? e.message : seedTexts.contact.updateFailed);
      setFieldErrors(fieldErrorsOf(e));
    } finally {
      setBusy(false);
    }
  };

  const text = (field: TextField, extra: { disabled?: boolean; helper?: string; type?: string } = {}) => (
    <TextField
      size="small"
      fullWidth
      label={title(field)}
      type={extra.type}
      value={form?.[field] ?? ''}
      disabled={locked || extra.disabled}
      required={field === 'displayName'}
      error={Boolean(fieldErrors[field])}
      helperText={fieldErrors[field] ?? extra.helper}
      onChange={(e) => set(field, e.target.value)}
      slotProps={{
        htmlInput: { 'data-field': field }
      }}
    />
  );
  const toggle = (field: SwitchField) => (
    <FormControlLabel
      control={<Switch checked={Boolean(form?.[field])} disabled={locked || !admin} onChange={(e) => set(field, e.target.checked)} />}
      label={title(field)}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="contact-edit-title">
      <DialogTitle id="contact-edit-title">{texts.contactEdit.title}</DialogTitle>
      <DialogContent>
        {!form && !error && <CircularProgress size={24} sx={{ display: 'block', mx: 'auto', my: 2 }} />}
        {error && <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert>}
        {locked && <Alert severity="warning" sx={{ mb: 1 }}>{seedTexts.registers.blockedContactEdit}</Alert>}
        {form && (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: 1 }}>
            <Box>
              {toggle('active')}
              {!admin && <FormHelperText>{seedTexts.registers.adminOnlyHint}</FormHelperText>}
            </Box>
            <Divider textAlign="left"><Typography variant="caption">{texts.contactEdit.blocks}</Typography></Divider>
            <Box sx={{ display: 'flex', flexWrap: 'wrap' }}>
              {toggle('blockedSending')}
              {toggle('blockedReceiving')}
            </Box>
            <Divider />
            {text('displayName')}
            {text('name')}
            {text('email', { type: 'email' })}
            {text('phone', { disabled: contact?.phoneLocked, helper: contact?.phoneLocked ? seedTexts.registers.phoneLockedHint : undefined })}
            <FormControl size="small" fullWidth error={Boolean(fieldErrors.channels)} disabled={locked}>
              <InputLabel id="contact-edit-channels">{title('channels')}</InputLabel>
              <Select
                labelId="contact-edit-channels"
                multiple
                label={title('channels')}
                value={form.channels}
                onChange={(e) => {
                  const picked = typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value;
                  // 'Selecionar Todos' (seed 001 §8 "Contact edit form") ticks every channel, or clears them when all were ticked.
                  if (!picked.includes(SELECT_ALL)) return set('channels', picked);
                  set('channels', form.channels.length === channelOptions.length ? [] : channelOptions.map((o) => o.id));
                }}
                renderValue={(v) => v.map((id) => channelOptions.find((o) => o.id === id)?.label ?? id).join(', ')}
              >
                <MenuItem value={SELECT_ALL}>
                  <Checkbox size="small" checked={channelOptions.length > 0 && form.channels.length === channelOptions.length} indeterminate={form.channels.length > 0 && form.channels.length < channelOptions.length} />
                  <ListItemText primary={seedTexts.registers.selectAll} />
                </MenuItem>
                {channelOptions.map((o) => (
                  <MenuItem key={o.id} value={o.id}>
                    <Checkbox size="small" checked={form.channels.includes(o.id)} />
                    <ListItemText primary={o.label} />
                  </MenuItem>
                ))}
              </Select>
              {fieldErrors.channels && <FormHelperText>{fieldErrors.channels}</FormHelperText>}
            </FormControl>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{texts.contactEdit.cancel}</Button>
        <Button variant="contained" disabled={!form || locked || busy} onClick={() => void submit()}>{texts.contactEdit.submit}</Button>
      </DialogActions>
    </Dialog>
  );
}
