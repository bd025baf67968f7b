import { useEffect, useRef, useState } from 'react';
import {
  Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, InputLabel, MenuItem, Select, TextField,
} from '@mui/material';
import { MESSAGE_MAX_LENGTH, channelIs, isAdmin, messages as seedTexts } from '@atendimento/schemas';
import type { ActiveMessageOptions, TemplateSendInput } from '@atendimento/schemas/chat/whatsapp';
import { useConsole } from '../../ConsoleContext';
import type { Contact, Room } from '../../model/chat';
import { newIdempotencyKey } from '../../model/chatApi';
import { roomActions } from '../../store/consoleStores';
import { TemplateDialog } from './TemplateDialog';
import { whatsappTexts } from './texts';

const t = whatsappTexts.active;

const activeMessagePaths = {
  options: (contactId: string) => `/api/rooms/activeMessage/options?${new URLSearchParams({ contactId })}`,
  send: () => '/api/rooms/activeMessage',
} as const;

/**
 * 'Mensagem Ativa' (seed 001 §2, §5): channel ('Selecione o número para continuar o
 * atendimento') and, for users with departments, department ('Selecione um departamento para
 * continuar o atendimento'); a single channel is preselected. Inside the contact's 24-hour
 * window a text may go; outside it only a template (the template dialog). The server opens or
 * reuses the contact's chat, attended by the caller, and `onOpened` shows it.
 */
export function ActiveMessageDialog({ open, contactId, onClose, onOpened }: { open: boolean; contactId: string; onClose: () => void; onOpened?: (room: Room) => void }) {
  const { api, stores } = useConsole();
  const [options, setOptions] = useState<ActiveMessageOptions | null>(null);
  const [channelId, setChannelId] = useState('');
  const [departmentId, setDepartmentId] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // One key per dialog opening: a retried click creates one message.
  const key = useRef(newIdempotencyKey());

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    key.current = newIdempotencyKey();
    setOptions(null);
    setError(null);
    setText('');
    setDepartmentId('');
    api.request<{ data: ActiveMessageOptions }>(activeMessagePaths.options(contactId), { notify: false }).then(
      ({ body }) => {
        if (cancelled) return;
        setOptions(body.data);
        setChannelId(body.data.channels.length === 1 ? body.data.channels[0]!.id : '');
      },
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
  }, [open, contactId, api]);

  const channel = options?.channels.find((c) => c.id === channelId) ?? null;
  const needsDepartment = (options?.departments.length ?? 0) > 0;

  /** The seed's two checks, in its order; true when both hold. */
  function choicesMade(): boolean {
    if (!channel) {
      setError(seedTexts.chat.chooseChannel);
      return false;
    }
    if (needsDepartment && !departmentId) {
      setError(seedTexts.chat.chooseDepartment);
      return false;
    }
    setError(null);
    return true;
  }

  async function post(content: { text: string } | { template: TemplateSendInput }) {
    setBusy(true);
    try {
      const { body } = await api.request<{ data: { room: Room } }>(activeMessagePaths.send(), {
        method: 'POST',
        body: { contactId, channelId, ...(needsDepartment && { departmentId }), ...content, clientId: key.current },
        notify: false,
      });
      roomActions.upsert(stores.rooms, [body.data.room]);
      onOpened?.(body.data.room);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      throw e;
    } finally {
      setBusy(false);
    }
  }

  function sendText() {
    if (!choicesMade()) return;
    if (!text.trim()) return;
    void post({ text: text.trim() }).catch(() => undefined);
  }

  function openTemplates() {
    if (choicesMade()) setTemplateOpen(true);
  }

  return (
    <>
      <Dialog open={open && !templateOpen} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="active-message-title">
        <DialogTitle id="active-message-title">{t.title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {!options && !error && <Box sx={{ display: 'flex', justifyContent: 'center' }}><CircularProgress size={24} /></Box>}
          {options && (
            <>
              <FormControl size="small" fullWidth>
                <InputLabel id="active-channel">{t.channel}</InputLabel>
                <Select labelId="active-channel" label={t.channel} value={channelId} onChange={(e) => { setChannelId(String(e.target.value)); setError(null); }}>
                  {options.channels.map((c) => <MenuItem key={c.id} value={c.id}>{c.phoneNumber ? `${c.displayName} (${c.phoneNumber})` : c.displayName}</MenuItem>)}
                </Select>
              </FormControl>
              {needsDepartment && (
                <FormControl size="small" fullWidth>
                  <InputLabel id="active-department">{t.department}</InputLabel>
                  <Select labelId="active-department" label={t.department} value={departmentId} onChange={(e) => { setDepartmentId(String(e.target.value)); setError(null); }}>
                    {options.departments.map((d) => <MenuItem key={d.id} value={d.id}>{d.displayName}</MenuItem>)}
                  </Select>
                </FormControl>
              )}
              {channel && !channel.windowOpen && <Alert severity="info" role="status">{t.windowClosed}</Alert>}
              {(!channel || channel.windowOpen) && (
                <TextField label={t.message} multiline minRows={2} value={text} onChange={(e) => setText(e.target.value)} slotProps={{
                  htmlInput: { maxLength: MESSAGE_MAX_LENGTH }
                }} />
              )}
            </>
          )}
          {error && <Alert severity="error" role="alert">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t.cancel}</Button>
          {options && (!channel || channel.templates) && <Button onClick={openTemplates} disabled={busy}>{t.chooseTemplate}</Button>}
          {options && (!channel || channel.windowOpen) && <Button variant="contained" onClick={sendText} disabled={busy || !text.trim()}>{t.send}</Button>}
        </DialogActions>
      </Dialog>
      <TemplateDialog
        open={open && templateOpen}
        channelId={channel?.id ?? null}
        onClose={() => setTemplateOpen(false)}
        onSend={(template) => post({ template })}
      />
    </>
  );
}

/**
 * The drawer's 'Mensagem Ativa' button: WhatsApp contacts only, for users with claim
 * allowActiveMessage (or admins), hidden when the contact is blocked.
 */
export function ActiveMessageButton({ room, contact, onOpened }: { room: Room; contact: Contact | undefined; onOpened?: (room: Room) => void }) {
  const { user } = useConsole();
  const [open, setOpen] = useState(false);
  const blocked = Boolean(contact?.blockedSending ?? room.author?.blockedSending);
  const whatsapp = contact?.channels ? contact.channels.includes('whatsapp') : channelIs(room.channel, 'whatsapp');
  const contactId = contact?.id ?? room.author?.id;
  if (!contactId || blocked || !whatsapp || room.internal || !(isAdmin(user) || user.claims.allowActiveMessage)) return null;
  return (
    <>
      <Button size="small" variant="contained" color="success" onClick={() => setOpen(true)} sx={{ mx: 1, mb: 1 }}>{t.button}</Button>
      <ActiveMessageDialog open={open} contactId={contactId} onClose={() => setOpen(false)} onOpened={onOpened} />
    </>
  );
}
