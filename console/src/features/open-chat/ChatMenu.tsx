import { useState } from 'react';
import { IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { hasTenantClaim, isAdmin, messages as seedTexts, type AppConfig, type User } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { texts } from '../../ui/texts';
import type { ChatActions } from './useChatActions';
import { CloseDialog } from './CloseDialog';
import { InternalChatDialog } from '../internal-chat/InternalChatDialog';
import { useAgentDirectory } from '../internal-chat/useAgentDirectory';

export type ChatMenuOption = 'enter' | 'leave' | 'close' | 'closeNoMessage' | 'markRead' | 'markUnread' | 'contact' | 'addAgents' | 'leaveInternal';

/**
 * Options of the chat menu by state (seed 001 §4 "Chat menu by state"): an active non-mail chat offers enter or leave, close, close without notice and mark
 * read/unread; an active mail chat leave, close and read/unread; an inactive chat only contact.
 */
function chatMenuOptions(room: Room, user: User, config: AppConfig): { option: ChatMenuOption; disabled: boolean }[] {
  const admin = isAdmin(user);
  const inRoom = (room.agents ?? []).some((a) => a.id === user.id);
  const busy = Boolean(room.messageActive);
  if (room.internal) {
    // Seed 001 §4: an internal chat offers add agents, leave and (optionally) read/unread.
    if (!room.active) return [];
    const out: { option: ChatMenuOption; disabled: boolean }[] = [{ option: 'addAgents', disabled: busy }, { option: 'leaveInternal', disabled: busy }];
    if (!hasTenantClaim(config, 'disableSetUnread')) out.push({ option: room.lastMessage?.unread && room.lastMessage.author?.id !== user.id ? 'markRead' : 'markUnread', disabled: busy });
    return out;
  }
  if (!room.active) return [{ option: 'contact', disabled: false }];
  const blockedBy = (claim: string) => !admin && hasTenantClaim(config, claim);
  const out: { option: ChatMenuOption; disabled: boolean }[] = [];
  const mail = room.channel === 'mail' || room.origin === 'mail';
  if (mail) out.push({ option: 'contact', disabled: false });
  else if (!inRoom) out.push({ option: 'enter', disabled: busy });
  if (inRoom) out.push({ option: 'leave', disabled: busy });
  out.push({ option: 'close', disabled: busy || blockedBy('disableCloseChat') });
  if (!mail) out.push({ option: 'closeNoMessage', disabled: busy || blockedBy('disableCloseChatNoMessage') });
  if (!hasTenantClaim(config, 'disableSetUnread')) out.push({ option: room.lastMessage?.unread ? 'markRead' : 'markUnread', disabled: busy });
  return out;
}

const LABELS: Record<ChatMenuOption, string> = {
  enter: texts.menu.enter,
  leave: texts.menu.leave,
  close: texts.menu.close,
  closeNoMessage: texts.menu.closeNoMessage,
  markRead: texts.menu.markRead,
  markUnread: texts.menu.markUnread,
  contact: texts.menu.contact,
  addAgents: seedTexts.internalChat.addAgents,
  leaveInternal: seedTexts.internalChat.leave,
};

/** The open chat's menu button and its closure dialog. */
export function ChatMenu({ room, actions, onContact }: { room: Room; actions: ChatActions; onContact: () => void }) {
  const { user, appConfig, notify } = useConsole();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [closing, setClosing] = useState<null | 'close' | 'closeNoMessage'>(null);
  const [adding, setAdding] = useState(false);
  const directory = useAgentDirectory(adding);
  const options = chatMenuOptions(room, user, appConfig);

  const pick = (option: ChatMenuOption) => {
    setAnchor(null);
    if (option === 'enter') void actions.enter();
    if (option === 'leave') void actions.leave();
    if (option === 'markRead') void actions.setUnread(false);
    if (option === 'markUnread') void actions.setUnread(true);
    if (option === 'contact') onContact();
    if (option === 'addAgents') setAdding(true);
    if (option === 'leaveInternal') void actions.leaveInternal();
    if (option === 'close' || option === 'closeNoMessage') {
      // forceAgentMessage: no closing before the agent wrote to the contact (seed 001 §4).
      if (hasTenantClaim(appConfig, 'forceAgentMessage') && (room.messagesCount?.agentMessage ?? 0) === 0) {
        notify(seedTexts.chatServer.forceAgentMessage, 'warning');
        return;
      }
      setClosing(option);
    }
  };

  return (
    <>
      <IconButton aria-label={texts.menu.open} onClick={(e) => setAnchor(e.currentTarget)}>
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {options.map(({ option, disabled }) => (
          <MenuItem key={option} disabled={disabled} onClick={() => pick(option)}>
            <ListItemText>{LABELS[option]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
      {room.internal && (
        <InternalChatDialog
          open={adding}
          mode="add"
          agents={directory}
          exclude={(room.agents ?? []).map((a) => a.id)}
          onCancel={() => setAdding(false)}
          onConfirm={async (ids) => {
            const ok = await actions.addAgents(ids);
            if (ok) setAdding(false);
            return ok;
          }}
        />
      )}
      <CloseDialog
        open={closing !== null}
        noMessage={closing === 'closeNoMessage'}
        onCancel={() => setClosing(null)}
        onConfirm={async (input) => {
          const ok = await actions.close(input, closing === 'closeNoMessage');
          if (ok) setClosing(null);
          return ok;
        }}
      />
    </>
  );
}
