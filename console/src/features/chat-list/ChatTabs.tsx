import { useEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { Badge, Box } from '@mui/material';
import ButtonBase from '@mui/material/ButtonBase';
import { styled } from '@mui/material/styles';
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

const Column = styled('div')(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  flexShrink: 0,
  minWidth: 84,
  overflowY: 'auto',
  scrollbarWidth: 'none',
  borderRight: `1px solid ${theme.palette.divider}`,
}));

const TabButton = styled(ButtonBase)(({ theme }) => ({
  minWidth: 84,
  padding: theme.spacing(0.75, 0.5),
  fontSize: 11,
  lineHeight: 1.2,
  fontWeight: theme.typography.fontWeightMedium,
  fontFamily: theme.typography.fontFamily,
  color: theme.palette.text.secondary,
  // The selected tab's line on the column's edge, where MUI's vertical indicator was.
  boxShadow: 'inset -2px 0 0 transparent',
  transition: theme.transitions.create(['color', 'box-shadow'], { duration: theme.transitions.duration.shorter }),
  '&[aria-selected="true"]': { color: theme.palette.primary.main, boxShadow: `inset -2px 0 0 ${theme.palette.primary.main}` },
  '&.Mui-focusVisible': { backgroundColor: theme.palette.action.focus },
}));

const TOTAL_SX = { position: 'absolute', right: '100%', bottom: -2, mr: 0.125, bgcolor: 'success.main', color: '#fff', borderRadius: 8, px: 0.45, fontSize: 10, lineHeight: '15px', minWidth: 15, textAlign: 'center', whiteSpace: 'nowrap' } as const;

const oneDecimal = (n: number) => (Math.floor(n * 10) / 10).toLocaleString('pt-BR', { maximumFractionDigits: 1 });

/**
 * The green total as it fits beside the icon (~28 px of the 84 px tab): exact up to 999, then
 * 1,2k · 12k · 100k · 1,2M (rounded down, so a badge never shows more chats than there are).
 * The exact number is the badge's title.
 */
export function tabTotal(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${oneDecimal(n / 1000)}k`;
  if (n < 1_000_000) return `${Math.floor(n / 1000)}k`;
  if (n < 10_000_000) return `${oneDecimal(n / 1_000_000)}M`;
  return `${Math.floor(n / 1_000_000)}M`;
}

/**
 * Vertical tabs of the chat list (seed 001 §2): icon, title and two badges — red the unread
 * chats, green the total of the tab. The title is always written under the icon, so there is
 * no tooltip (it only covered the list after each click). Compact: the total sits beside the
 * icon instead of on a row of its own and a tab is no taller than its content, so a
 * supervisor's ten tabs fit a 900 px high window without cutting 'Todas Filas'; on a shorter
 * one the column scrolls by itself. A WAI-ARIA tab list of our own (arrow keys, Home and End
 * move between tabs, the selected one is the single tab stop), not MUI's Tabs: the console's
 * first screen loads ~5 kB less (tests/bench B10b, docs/console.md "Loading").
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
  const column = useRef<HTMLDivElement>(null);
  const selected = tabs.includes(value) ? value : null;
  // The tab stop: the selected tab, or the first one when none of these is selected.
  const stop = selected ?? tabs[0];

  // A tab picked elsewhere (a notification, the tenant's default) is brought into view.
  useEffect(() => {
    const tab = column.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    tab?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = [...(column.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const next = event.key === 'ArrowDown' ? (at + 1) % all.length : event.key === 'ArrowUp' ? (at - 1 + all.length) % all.length : event.key === 'Home' ? 0 : event.key === 'End' ? all.length - 1 : -1;
    if (next < 0) return;
    event.preventDefault();
    all[next]!.focus();
  };

  return (
    <Column ref={column} role="tablist" aria-orientation="vertical" aria-label="Abas de chats" onKeyDown={moveFocus}>
      {tabs.map((id) => {
        const c = counts[id];
        const label = labels?.[id] ?? CHAT_TAB_BY_ID[id].label;
        return (
          <TabButton key={id} role="tab" aria-selected={id === selected} tabIndex={id === stop ? 0 : -1} aria-label={label} data-tab={id} onClick={() => id !== selected && onChange(id)}>
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.25 }}>
              <Box sx={{ position: 'relative', display: 'flex', alignItems: 'center' }}>
                <Badge badgeContent={c?.unread ?? 0} color="error" max={999} data-badge="unread" overlap="circular">
                  {ICONS[id]}
                </Badge>
                {id !== 'contacts' && (
                  <Box component="span" data-badge="total" title={(c?.total ?? 0).toLocaleString('pt-BR')} sx={TOTAL_SX}>
                    {tabTotal(c?.total ?? 0)}
                  </Box>
                )}
              </Box>
              <span>{label}</span>
            </Box>
          </TabButton>
        );
      })}
    </Column>
  );
}
