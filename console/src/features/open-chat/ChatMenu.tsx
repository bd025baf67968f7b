import { useEffect, useState } from 'react';
import { IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PauseCircleOutlineIcon from '@mui/icons-material/PauseCircleOutlineOutlined';
import PauseCircleFilledIcon from '@mui/icons-material/PauseCircleFilled';
import { departmentQueueId, hasTenantClaim, isAdmin, messages as seedTexts, type AppConfig, type TransferTargets, type User } from '@atendimento/schemas';
import { chatPaths } from '../../model/chatApi';
import { TransferDialog } from './TransferDialog';
import { TagsDialog } from './TagsDialog';
import { useTagOptions } from './useTagOptions';
import { OnHoldDialog } from './OnHoldDialog';
import { useFixedMessages } from '../composer/useFixedMessages';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { texts } from '../../ui/texts';
import { useCopy } from '../../ui/useCopy';
import type { ChatActions } from './useChatActions';
import { CloseDialog } from './CloseDialog';
import { InternalChatDialog } from '../internal-chat/InternalChatDialog';
import { useAgentDirectory } from '../internal-chat/useAgentDirectory';

export type ChatMenuOption = 'restartBot' | 'copyLink' | 'enter' | 'leave' | 'transfer' | 'queues' | 'tags' | 'closeNps' | 'closeCsat' | 'close' | 'closeNoMessage' | 'markRead' | 'markUnread' | 'contact' | 'addAgents' | 'leaveInternal';

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
    const readOption: ChatMenuOption = room.lastMessage?.unread && room.lastMessage.author?.id !== user.id ? 'markRead' : 'markUnread';
    if (!(readOption === 'markUnread' && !admin && hasTenantClaim(config, 'disableSetUnread'))) out.push({ option: readOption, disabled: busy });
    return out;
  }
  // Seed 001 §4: an inactive chat offers only contact and tags.
  if (!room.active) return [{ option: 'contact', disabled: false }, { option: 'tags', disabled: false }];
  const blockedBy = (claim: string) => !admin && hasTenantClaim(config, claim);
  const out: { option: ChatMenuOption; disabled: boolean }[] = [];
  const mail = room.channel === 'mail' || room.origin === 'mail';
  if (mail) out.push({ option: 'contact', disabled: false });
  else if (!inRoom) out.push({ option: 'enter', disabled: busy });
  if (inRoom) out.push({ option: 'leave', disabled: busy });
  // Add agents to a customer chat: admins and the department's supervisors (the server's push rule).
  if (!mail && (admin || supervisesRoom(user, room))) out.push({ option: 'addAgents', disabled: busy });
  // Transfer and queues (seed 001 §4): for whoever attends it, the department's supervisors
  // included (the server's canAttend): a supervisor watching a team chat moves it without entering.
  const attends = inRoom || admin || supervisesRoom(user, room);
  if (attends) {
    if (!blockedBy('disableChooseTransfer')) out.push({ option: 'transfer', disabled: busy });
    if (!blockedBy('disableChooseQueue')) out.push({ option: 'queues', disabled: busy });
  }
  out.push({ option: 'close', disabled: busy || blockedBy('disableCloseChat') });
  if (!mail) out.push({ option: 'closeNoMessage', disabled: busy || blockedBy('disableCloseChatNoMessage') });
  // Close with a survey (seed 001 §4): askResearch (NPS) / askResearchCsat (CSAT); disableAskResearch binds non-admins.
  if (!mail && hasTenantClaim(config, 'askResearch')) out.push({ option: 'closeNps', disabled: busy || blockedBy('disableAskResearch') });
  if (!mail && hasTenantClaim(config, 'askResearchCsat')) out.push({ option: 'closeCsat', disabled: busy || blockedBy('disableAskResearch') });
  // Return to the start of the bot (tenant claim backBeggining; disableRestartApp binds non-admins).
  if (!mail && attends && hasTenantClaim(config, 'backBeggining')) out.push({ option: 'restartBot', disabled: busy || blockedBy('disableRestartApp') });
  // Read/unread for whoever attends it (the server's rule); disableSetUnread hides 'unread' for non-admins.
  const readOption: ChatMenuOption = room.lastMessage?.unread ? 'markRead' : 'markUnread';
  if (attends && !(readOption === 'markUnread' && blockedBy('disableSetUnread'))) out.push({ option: readOption, disabled: busy });
  out.push({ option: 'tags', disabled: busy });
  // The public link (/chat/:token) for whoever attends it: the server gives it to them only.
  if (attends) out.push({ option: 'copyLink', disabled: false });
  return out;
}

/** Supervisor of the room's department or of one of its queues (as the server's `supervises`). */
function supervisesRoom(user: User, room: Room): boolean {
  const of = user.supervisorOf ?? [];
  return (room.departmentId != null && of.includes(room.departmentId)) || (room.queues ?? []).some((q) => of.some((d) => q.id === departmentQueueId(d)));
}

const LABELS: Record<ChatMenuOption, string> = {
  restartBot: seedTexts.chatServer.restartBot,
  copyLink: seedTexts.chatServer.copyLink,
  enter: texts.menu.enter,
  leave: texts.menu.leave,
  transfer: texts.menu.transfer,
  queues: texts.menu.queues,
  tags: texts.menu.tags,
  close: texts.menu.close,
  closeNoMessage: texts.menu.closeNoMessage,
  closeNps: seedTexts.survey.closeNps,
  closeCsat: seedTexts.survey.closeCsat,
  markRead: texts.menu.markRead,
  markUnread: texts.menu.markUnread,
  contact: texts.menu.contact,
  addAgents: seedTexts.internalChat.addAgents,
  leaveInternal: seedTexts.internalChat.leave,
};

/** The open chat's menu button and its closure dialog. */
export function ChatMenu({ room, actions, onContact }: { room: Room; actions: ChatActions; onContact: () => void }) {
  const { user, appConfig, notify, api } = useConsole();
  const [transferring, setTransferring] = useState<null | 'agents' | 'queues'>(null);
  const [targets, setTargets] = useState<TransferTargets | null>(null);
  const [tagging, setTagging] = useState(false);
  const tagOptions = useTagOptions(tagging);
  const [holding, setHolding] = useState(false);
  const fixedMessages = useFixedMessages(holding, { always: true });
  // On hold (seed 001 §4): claim enableChatOnHold, for whoever attends an active chat; disabled while a send is in flight.
  const holdAvailable = hasTenantClaim(appConfig, 'enableChatOnHold') && room.active && !room.internal && ((room.agents ?? []).some((a) => a.id === user.id) || isAdmin(user));
  const onHold = Boolean(room.onHold?.active);
  useEffect(() => {
    if (!transferring) return;
    let live = true;
    setTargets(null);
    api.request<{ data: TransferTargets }>(chatPaths.transferTargets(room.id), { notify: false }).then(
      ({ body }) => live && setTargets(body.data),
      (e: Error) => {
        notify(e.message, 'error');
        if (live) setTransferring(null);
      },
    );
    return () => {
      live = false;
    };
  }, [transferring, room.id, api, notify]);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [closing, setClosing] = useState<null | 'close' | 'closeNoMessage' | 'closeNps' | 'closeCsat'>(null);
  const [adding, setAdding] = useState(false);
  const directory = useAgentDirectory(adding);
  const options = chatMenuOptions(room, user, appConfig);
  const copy = useCopy();

  const pick = (option: ChatMenuOption) => {
    setAnchor(null);
    if (option === 'enter') void actions.enter();
    if (option === 'leave') void actions.leave();
    if (option === 'markRead') void actions.setUnread(false);
    if (option === 'markUnread') void actions.setUnread(true);
    if (option === 'contact') onContact();
    if (option === 'tags') setTagging(true);
    if (option === 'transfer') setTransferring('agents');
    if (option === 'queues') setTransferring('queues');
    if (option === 'addAgents') setAdding(true);
    if (option === 'leaveInternal') void actions.leaveInternal();
    if (option === 'restartBot') void actions.restartBot();
    if (option === 'copyLink') void actions.publicLink().then((url) => (url ? copy(url) : undefined));
    if (option === 'close' || option === 'closeNoMessage' || option === 'closeNps' || option === 'closeCsat') {
      // forceAgentMessage: no closing before the agent wrote to the contact (seed 001 §4).
      if (hasTenantClaim(appConfig, 'forceAgentMessage') && (room.messagesCount?.agentMessage ?? 0) === 0) {
        notify(seedTexts.chatServer.forceAgentMessage, 'warning');
        return;
      }
      // tagWhenClose: a chat closes with a tag; the tags dialog opens first (the server checks too).
      if (hasTenantClaim(appConfig, 'tagWhenClose') && (room.tags ?? []).length === 0) {
        notify(seedTexts.chatServer.tagRequired, 'warning');
        setTagging(true);
        return;
      }
      setClosing(option);
    }
  };

  return (
    <>
      {holdAvailable && (
        <IconButton
          aria-label={onHold ? texts.onHold.resume : seedTexts.chat.onHoldTitle}
          aria-pressed={onHold}
          color={onHold ? 'warning' : 'default'}
          disabled={Boolean(room.messageActive)}
          data-on-hold={onHold ? 'true' : 'false'}
          onClick={() => (onHold ? void actions.setOnHold(null) : setHolding(true))}
        >
          {onHold ? <PauseCircleFilledIcon /> : <PauseCircleOutlineIcon />}
        </IconButton>
      )}
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
      {(room.internal || options.some((o) => o.option === 'addAgents')) && (
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
      <OnHoldDialog
        open={holding}
        items={fixedMessages}
        onCancel={() => setHolding(false)}
        onConfirm={async (message) => {
          const ok = await actions.setOnHold(message);
          if (ok) setHolding(false);
          return ok;
        }}
      />
      <TagsDialog
        open={tagging}
        room={room}
        tags={tagOptions}
        onCancel={() => setTagging(false)}
        onConfirm={async (ids) => {
          const ok = await actions.setTags(ids);
          if (ok) setTagging(false);
          return ok;
        }}
      />
      <TransferDialog
        open={transferring !== null}
        kind={transferring ?? 'agents'}
        targets={targets}
        onCancel={() => setTransferring(null)}
        onConfirm={async (value) => {
          const ok = await actions.transfer(value);
          if (ok) setTransferring(null);
          return ok;
        }}
      />
      <CloseDialog
        open={closing !== null}
        noMessage={closing === 'closeNoMessage'}
        research={closing === 'closeNps' ? 'nps' : closing === 'closeCsat' ? 'csat' : undefined}
        onCancel={() => setClosing(null)}
        onConfirm={async (input) => {
          const ok = await actions.close(input, closing === 'closeNoMessage', closing === 'closeNps' ? 'nps' : closing === 'closeCsat' ? 'csat' : undefined);
          if (ok) setClosing(null);
          return ok;
        }}
      />
    </>
  );
}
