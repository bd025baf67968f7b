import { Badge, Box, Tab, Tabs } from '@mui/material';
import ContactsIcon from '@mui/icons-material/Contacts';
import PersonIcon from '@mui/icons-material/Person';
import QueueIcon from '@mui/icons-material/Queue';
import GroupsIcon from '@mui/icons-material/Groups';
import MailIcon from '@mui/icons-material/Mail';
import InboxIcon from '@mui/icons-material/Inbox';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import AllInboxIcon from '@mui/icons-material/AllInbox';
import HistoryIcon from '@mui/icons-material/History';
import ForumIcon from '@mui/icons-material/Forum';
import type { ReactElement } from 'react';
import { CHAT_TAB_BY_ID, type ChatTabId } from '@atendimento/schemas';

const ICONS: Record<ChatTabId, ReactElement> = {
  contacts: <ContactsIcon />,
  userChats: <PersonIcon />,
  queuesChats: <QueueIcon />,
  teamChats: <GroupsIcon />,
  userMailChat: <MailIcon />,
  mailChats: <InboxIcon />,
  botChats: <SmartToyIcon />,
  allQueuesChats: <AllInboxIcon />,
  chatsHistories: <HistoryIcon />,
  internalChats: <ForumIcon />,
};

/**
 * Vertical tabs of the chat list (seed 001 §2): icon, title and two badges — red the unread
 * chats, green the total of the tab. The title is always written under the icon, so there is
 * no tooltip (it only covered the list after each click). Compact: the total sits beside the
 * icon instead of on a row of its own and a tab is no taller than its content (MUI's icon tabs
 * are 72 px), so a supervisor's ten tabs fit a 900 px high window without cutting 'Todas Filas';
 * on a shorter one the column scrolls by itself, without arrow buttons covering a tab.
 */
export function ChatTabs({ tabs, value, counts, labels, onChange }: {
  /** In the order to show (the tenant's chatTabs already applied, `availableChatTabs`). */
  tabs: ChatTabId[];
  value: ChatTabId;
  counts: Partial<Record<string, { total: number; unread: number }>>;
  /** The tenant's titles (`chatTabLabels`); a tab without one shows the seed's. */
  labels?: Partial<Record<ChatTabId, string>>;
  onChange: (tab: ChatTabId) => void;
}) {
  return (
    <Tabs orientation="vertical" value={tabs.includes(value) ? value : false} onChange={(_, v: ChatTabId) => onChange(v)} variant="scrollable" scrollButtons={false} aria-label="Abas de chats" sx={{ borderRight: 1, borderColor: 'divider', minWidth: 84 }}>
      {tabs.map((id) => {
        const c = counts[id];
        const label = labels?.[id] ?? CHAT_TAB_BY_ID[id].label;
        return (
          <Tab
            key={id}
            value={id}
            aria-label={label}
            data-tab={id}
            sx={{ minWidth: 84, minHeight: 0, px: 0.5, py: 0.75, fontSize: 11, lineHeight: 1.2, textTransform: 'none' }}
            label={
              <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.25 }}>
                <Box sx={{ position: 'relative', display: 'flex', alignItems: 'center' }}>
                  <Badge badgeContent={c?.unread ?? 0} color="error" max={999} data-badge="unread" overlap="circular">
                    {ICONS[id]}
                  </Badge>
                  {id !== 'contacts' && (
                    <Box component="span" data-badge="total" sx={{ position: 'absolute', right: '100%', bottom: -2, mr: 0.25, bgcolor: 'success.main', color: '#fff', borderRadius: 8, px: 0.6, fontSize: 10, lineHeight: '15px', minWidth: 15, textAlign: 'center' }}>
                      {c?.total ?? 0}
                    </Box>
                  )}
                </Box>
                <span>{label}</span>
              </Box>
            }
          />
        );
      })}
    </Tabs>
  );
}
