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
 * The 'Contatos' tab: contacts ordered by name, 20 more a page (seed 001 §7); a click starts or
 * reopens the contact's chat (POST /api/rooms { contactId }). It reads the `contacts` live
 * collection, whose scope is the tab's rule (docs/console-operations.md): an agent without the
 * contacts permission sees the contacts listing them (all with enableAllContacts), not nothing.
 * The register's REST list answered such an agent 403, and the tab stayed empty.
 */
/** Contacts a page: the 'Contatos' tab's limit (seed 002 §7). */
const PAGE = CHAT_TAB_BY_ID.contacts.limit;
const BY_NAME = [{ field: 'displayName', direction: 'asc' as const }];

export function ContactList({ onOpenRoom }: { onOpenRoom: (room: Room) => void }) {
  usePhoneFormats();
  const { api, live, stores, notify } = useConsole();
  const [ids, setIds] = useState<string[]>([]);
  const [limit, setLimit] = useState(PAGE);
  const [hasMore, setHasMore] = useState(false);
  const records = useStore(stores.contacts, (s) => s.records);

  useEffect(() => {
    const sub = live.subscribe('contacts', { orderBy: BY_NAME, limit });
    const off = sub.onUpdate((update) => {
      if (update.kind === 'error') return;
      // Group conversations are chats of their own, not people to start a chat with.
      const list = (update.records as unknown as Contact[]).filter((c) => !c.group);
      contactActions.upsert(stores.contacts, list);
      setIds(list.map((c) => c.id));
      setHasMore(update.records.length >= limit);
    });
    return () => {
      off();
      sub.close();
    };
  }, [live, stores, limit]);

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
      {hasMore && <Button fullWidth onClick={() => setLimit((n) => n + PAGE)}>Ver mais</Button>}
    </Box>
  );
}
