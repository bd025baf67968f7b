import { useEffect, useState } from 'react';
import { Box, Button, List as MuiList, ListItemAvatar, ListItemButton, ListItemText, Typography } from '@mui/material';
import { CHAT_TAB_BY_ID, messages, type CreateRoomAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Contact, Room } from '../../model/chat';
import { contactActions } from '../../store/consoleStores';
import { useStore } from '../../store/createStore';
import { ContactAvatar } from '../../ui/ContactAvatar';
import { formatPhone } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';

/**
 * The 'Contatos' tab: contacts ordered by name, 20 a page (seed 001 §7); a click starts or
 * reopens the contact's chat (POST /api/rooms { contactId }).
 */
/** Contacts a page: the 'Contatos' tab's limit (seed 002 §7). */
const PAGE = CHAT_TAB_BY_ID.contacts.limit;

export function ContactList({ onOpenRoom }: { onOpenRoom: (room: Room) => void }) {
  usePhoneFormats();
  const { api, stores, notify } = useConsole();
  const [ids, setIds] = useState<string[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const records = useStore(stores.contacts, (s) => s.records);

  useEffect(() => {
    let cancelled = false;
    const start = page * PAGE;
    const params = new URLSearchParams({ sort: JSON.stringify(['displayName', 'ASC']), range: JSON.stringify([start, start + PAGE - 1]), filter: JSON.stringify({ group: false }) });
    api.request<Contact[] | { data: Contact[] }>(`/api/contacts?${params}`, { notify: false }).then(
      ({ body }) => {
        if (cancelled) return;
        const list = Array.isArray(body) ? body : body.data ?? [];
        contactActions.upsert(stores.contacts, list);
        setIds((prev) => (page === 0 ? list.map((c) => c.id) : [...prev, ...list.map((c) => c.id)]));
        setHasMore(list.length === PAGE);
      },
      () => !cancelled && setHasMore(false),
    );
    return () => {
      cancelled = true;
    };
  }, [api, stores, page]);

  async function open(contact: Contact) {
    try {
      const { body } = await api.request<CreateRoomAnswer>('/api/rooms', { method: 'POST', body: { contactId: contact.id }, notify: false });
      onOpenRoom(body.data);
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  }

  if (ids.length === 0) return <Box sx={{ p: 3, textAlign: 'center' }}><Typography color="text.secondary">{messages.chat.emptyList}</Typography></Box>;
  return (
    <Box sx={{ overflow: 'auto', height: '100%' }}>
      <MuiList dense>
        {ids.map((id) => records[id]).filter(Boolean).map((c) => (
          <ListItemButton key={c!.id} onClick={() => open(c!)} disabled={Boolean(c!.blockedSending)}>
            <ListItemAvatar><ContactAvatar name={c!.displayName} photoUrl={c!.photoUrl} /></ListItemAvatar>
            <ListItemText primary={c!.displayName} secondary={c!.blockedSending ? messages.contact.blocked : formatPhone(c!.phone) || c!.email} />
          </ListItemButton>
        ))}
      </MuiList>
      {hasMore && <Button fullWidth onClick={() => setPage((p) => p + 1)}>Ver mais</Button>}
    </Box>
  );
}
