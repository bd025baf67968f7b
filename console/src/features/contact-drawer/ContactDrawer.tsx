import { useCallback, useEffect, useRef, useState } from 'react';
import { LazyPart } from '../../ui/LazyPart';
import { Box, Button, Chip, CircularProgress, Divider, IconButton, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { CONTACT_HISTORY_LIMIT, contactIsBlocked, hasPermission, isAdmin, messages as seedTexts, type Filter, type RoomsPageAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Contact, Room } from '../../model/chat';
import { chatPaths } from '../../model/chatApi';
import { contactActions, roomActions } from '../../store/consoleStores';
import { useStore } from '../../store/createStore';
import { LIMITS } from '../../ui/constants';
import { ContactAvatar } from '../../ui/ContactAvatar';
import { formatDateTime, formatPhone } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';
import { texts } from '../../ui/texts';
import { ActiveMessageButton } from '../whatsapp/ActiveMessageDialog';
import { QuotesButton } from './QuotesPane';
import { ChatIntegrations } from './ChatIntegrations';
import { lazyNamed } from '../../ui/lazyNamed';

// The edit form reads the contacts register's schema (with it, every register's): its own chunk, on 'Editar Contato'.
const ContactEditDialog = lazyNamed(() => import('./ContactEditDialog'), 'ContactEditDialog');

/** Chat ids GET /api/integration-chat/{chatId} accepts (phones, WhatsApp and e-mail ids); web-chat ids ('webchat:…') have no ERP link. */
const SEARCHABLE_CHAT_ID = /^[A-Za-z0-9@._+-]{1,120}$/;

/**
 * The contact's closed chats, 5 at a time ('Ver mais' asks the next page). Asked again when
 * `reloadKey` changes (the open room closing joins the history).
 */
function useContactHistory(contactId: string | null, reloadKey: unknown) {
  const { api, stores } = useConsole();
  const [state, setState] = useState<{ ids: string[]; next: string | null; loading: boolean }>({ ids: [], next: null, loading: false });
  const load = useCallback(
    async (after: string | null) => {
      if (!contactId) return;
      setState((s) => ({ ...s, loading: true }));
      const filter: Filter = { field: 'author.id', op: '==', value: contactId };
      const params = new URLSearchParams({ tab: 'chatsHistories', limit: String(CONTACT_HISTORY_LIMIT), filter: JSON.stringify(filter) });
      if (after) params.set('after', after);
      try {
        const { body } = await api.request<RoomsPageAnswer>(chatPaths.rooms(params), { notify: false });
        roomActions.upsert(stores.rooms, body.data);
        setState((s) => ({ ids: after ? [...s.ids, ...body.data.map((r) => r.id)] : body.data.map((r) => r.id), next: body.meta.next, loading: false }));
      } catch {
        setState((s) => ({ ...s, loading: false }));
      }
    },
    [api, stores, contactId],
  );
  useEffect(() => {
    setState({ ids: [], next: null, loading: false });
    void load(null);
  }, [load, reloadKey]);
  return { ...state, more: () => void load(state.next) };
}

/**
 * The right contact drawer basics (seed 001 §2 "Right contact drawer"): avatar (click to
 * enlarge), name, id, masked phone, 'Contato Bloqueado', e-mail and the chat history with
 * 'Ver mais', then the "Integrações" block (findByChatId sections of the open chat). Width 226.
 * 'Editar Contato' opens the contact's edit form (ContactEditDialog), disabled for non-admins
 * when the contact is blocked.
 */
export function ContactDrawer({ roomId, onOpenRoom }: { roomId: string; onOpenRoom?: (room: Room) => void }) {
  usePhoneFormats();
  const { api, stores, user, readOnly, appConfig } = useConsole();
  const [editing, setEditing] = useState(false);
  const room = useStore(stores.rooms, (s) => s.records[roomId]);
  const contactId = room?.author?.id ?? null;
  const contact = useStore(stores.contacts, (s) => (contactId ? s.records[contactId] : undefined));
  const records = useStore(stores.rooms, (s) => s.records);
  const history = useContactHistory(contactId, room?.active);

  // The contact's record is read only by who may read the contacts register (admin or the
  // 'contacts' permission); everyone else sees the room's author fields, without a 403.
  const mayReadContacts = hasPermission(user, 'contacts');
  const asked = useRef(new Set<string>());
  useEffect(() => {
    if (!mayReadContacts || !contactId || contact || asked.current.has(contactId)) return;
    asked.current.add(contactId);
    // Written to the store even after unmount: the next drawer of this contact reuses it.
    api
      .request<Contact | { data: Contact }>(chatPaths.contact(contactId), { notify: false })
      .then(({ body }) => {
        const c = body && 'data' in body && body.data ? body.data : (body as Contact);
        if (c?.id) contactActions.upsert(stores.contacts, [c]);
      })
      .catch(() => undefined);
  }, [api, stores, contactId, contact, mayReadContacts]);

  if (!room) return null;
  const name = contact?.displayName ?? room.author?.displayName ?? '';
  const phone = contact?.phone ?? room.author?.phone ?? null;
  const email = contact?.email ?? room.author?.email ?? null;
  const blocked = contact ? contactIsBlocked(contact) : Boolean(room.author?.blockedSending);
  const photo = contact?.photoUrl ?? room.author?.photoUrl ?? null;

  return (
    <Box component="aside" aria-label={texts.drawer.title} sx={{ width: LIMITS.rightDrawerWidth, flexShrink: 0, height: '100%', overflowY: 'auto', bgcolor: '#fff', borderLeft: '1px solid #ddd', display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1 }}>
        {!readOnly && !room.internal && contactId && (
          <Button size="small" variant="outlined" disabled={blocked && !isAdmin(user)} onClick={() => setEditing(true)}>{texts.drawer.editContact}</Button>
        )}
        <Box sx={{ flex: 1 }} />
        <IconButton size="small" aria-label={texts.drawer.close} onClick={() => stores.ui.set((s) => ({ ...s, drawerRoomId: null }))}><CloseIcon fontSize="small" /></IconButton>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.5, px: 1, pb: 2, textAlign: 'center' }}>
        <ContactAvatar name={name} photoUrl={photo} size={72} />
        <Typography
          variant="subtitle1"
          sx={{
            fontWeight: 600,
            wordBreak: 'break-word'
          }}>{name}</Typography>
        <Typography variant="caption" data-contact-id sx={{
          color: "text.secondary"
        }}>{contactId}</Typography>
        {phone && <Typography variant="body2" data-contact-phone>{formatPhone(phone)}</Typography>}
        {blocked && <Chip size="small" color="error" label={seedTexts.contact.blocked} />}
        {email && <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>{email}</Typography>}
      </Box>
      <ActiveMessageButton room={room} contact={contact} onOpened={onOpenRoom} />
      {appConfig.quotesUrl && !room.internal && contactId && <QuotesButton roomId={roomId} />}
      <Divider />
      <Typography variant="overline" sx={{ px: 1.5, pt: 1 }}>{texts.drawer.history}</Typography>
      <List dense aria-label={texts.drawer.history}>
        {history.ids.map((id) => {
          const r = records[id];
          if (!r) return null;
          return (
            <ListItemButton key={id} onClick={() => onOpenRoom?.(r)}>
              <ListItemText primary={`#${r.roomInc} · ${formatDateTime(r.closedBy?.closedAt ?? r.lastMessageAt)}`} secondary={r.closedBy?.justify ?? r.lastMessage?.text ?? null} slotProps={{
                secondary: { noWrap: true }
              }} />
            </ListItemButton>
          );
        })}
      </List>
      {history.loading && <CircularProgress size={18} sx={{ alignSelf: 'center', my: 1 }} />}
      {!history.loading && history.ids.length === 0 && <Typography
        variant="caption"
        sx={{
          color: "text.secondary",
          px: 1.5
        }}>{seedTexts.table.noRecords}</Typography>}
      {history.next && !history.loading && <Button size="small" onClick={history.more}>{texts.drawer.seeMore}</Button>}
      {SEARCHABLE_CHAT_ID.test(room.chatId ?? '') && (
        <>
          <Divider sx={{ mt: 1 }} />
          <Box sx={{ px: 1.5, py: 1 }}>
            <ChatIntegrations key={room.chatId} chatId={room.chatId} />
          </Box>
        </>
      )}
      {editing && (
        <LazyPart>
          <ContactEditDialog open roomId={roomId} onClose={() => setEditing(false)} />
        </LazyPart>
      )}
    </Box>
  );
}
