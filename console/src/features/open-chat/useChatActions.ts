import { useMemo } from 'react';
import { emptyMessage, messages as seedTexts, type CloseRoomInput, type MessageAnswer, type RoomAnswer, type SendMessageInput, type UploadKind } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage, Room } from '../../model/chat';
import { chatPaths, newIdempotencyKey, type DeleteMessageInput } from '../../model/chatApi';
import { messageActions, roomActions } from '../../store/consoleStores';
import type { TransferDialogInput } from './TransferDialog';

export interface SendTextInput {
  text: string;
  annotation?: boolean;
  replyTo?: ChatMessage | null;
  editMessageId?: string | null;
}

export interface SendFileInput {
  file: File;
  kind: UploadKind;
  caption?: string;
  annotation?: boolean;
  replyTo?: ChatMessage | null;
}

/**
 * The calls of one open chat (seed 001 §7). Every send carries an idempotency key (`clientId`
 * and header Idempotency-Key): a resend after a network failure reuses it, so the server
 * creates one message. Own sends show at once as `pending:<key>` and are replaced by the stored
 * message when the answer (or the live change) arrives.
 */
export function useChatActions(room: Room) {
  const { api, stores, user, notify, now } = useConsole();
  return useMemo(() => {
    const roomId = room.id;
    const replyRef = (m: ChatMessage | null | undefined) => (m ? m.messageExtId ?? m.id : null);

    function pending(key: string, over: Partial<ChatMessage>): ChatMessage {
      const base = emptyMessage({
        id: `pending:${key}`,
        roomId,
        from: 'vueJs',
        to: 'vueJs',
        channel: room.channel,
        channelId: typeof room.channelId === 'string' ? room.channelId : null,
        author: { id: user.id, displayName: user.displayName ?? '', type: 'agent' },
        internal: room.internal,
        createdAt: new Date(now()).toISOString(),
      });
      return { ...base, idempotencyKey: key, ...over };
    }

    function failPending(key: string, error: unknown) {
      const id = `pending:${key}`;
      const current = stores.messages.get().records[id];
      if (!current) return;
      messageActions.upsert(stores.messages, roomId, [{ ...current, status: { failed: true, errors: [{ title: (error as Error).message }] } }]);
    }

    async function postText(key: string, body: SendMessageInput): Promise<ChatMessage | null> {
      try {
        const { body: answer } = await api.request<MessageAnswer>(chatPaths.message(roomId), { method: 'POST', body, headers: { 'Idempotency-Key': key }, notify: false });
        const stored = { ...(answer.data as ChatMessage), idempotencyKey: key };
        messageActions.upsert(stores.messages, roomId, [stored]);
        return stored;
      } catch (e) {
        failPending(key, e);
        notify((e as Error).message, 'error');
        return null;
      }
    }

    return {
      /** POST /api/rooms/:id/message: text, internal note, reply or edit of an own message. */
      async sendText(input: SendTextInput): Promise<ChatMessage | null> {
        const key = newIdempotencyKey();
        const body: SendMessageInput = { text: input.text, clientId: key };
        if (input.annotation) body.annotation = true;
        if (input.replyTo) body.replyTo = replyRef(input.replyTo);
        if (input.editMessageId) body.editMessageId = input.editMessageId;
        // An edit replaces an existing bubble: no pending one.
        if (!input.editMessageId) {
          messageActions.upsert(stores.messages, roomId, [pending(key, { text: input.text, annotation: Boolean(input.annotation), replyTo: body.replyTo ?? null })]);
        }
        return postText(key, body);
      },

      /** POST .../message/file (multipart; `type` also in the query so the server refuses big uploads before reading them). */
      async sendFile(input: SendFileInput): Promise<ChatMessage | null> {
        const key = newIdempotencyKey();
        const form = new FormData();
        form.append('type', input.kind);
        if (input.caption) form.append('caption', input.caption);
        if (input.annotation) form.append('annotation', 'true');
        form.append('clientId', key);
        const reply = replyRef(input.replyTo);
        if (reply) form.append('replyTo', reply);
        form.append('file', input.file, input.file.name);
        messageActions.upsert(stores.messages, roomId, [pending(key, { type: 'text', text: `${input.file.name}${input.caption ? ` - ${input.caption}` : ''}`, annotation: Boolean(input.annotation) })]);
        try {
          const { body: answer } = await api.request<MessageAnswer>(chatPaths.messageFile(roomId, input.kind), { method: 'POST', body: form, headers: { 'Idempotency-Key': key }, notify: false });
          const stored = { ...(answer.data as ChatMessage), idempotencyKey: key };
          messageActions.upsert(stores.messages, roomId, [stored]);
          return stored;
        } catch (e) {
          // A file send is not retried from the bubble (the file is gone): drop it and say why.
          messageActions.remove(stores.messages, roomId, [`pending:${key}`]);
          notify((e as Error).message, 'error');
          return null;
        }
      },

      /** POST .../message/fileUrl: a fixed message with its file. */
      async sendFixed(fixedMessageId: string): Promise<void> {
        const key = newIdempotencyKey();
        try {
          const { body } = await api.request<MessageAnswer>(chatPaths.messageFileUrl(roomId), { method: 'POST', body: { fixedMessageId, clientId: key }, headers: { 'Idempotency-Key': key }, notify: false });
          messageActions.upsert(stores.messages, roomId, [body.data as ChatMessage]);
        } catch (e) {
          notify((e as Error).message, 'error');
        }
      },

      /** Failed own message: a pending one is posted again with its key; a stored one goes to resendMessage. */
      async resend(m: ChatMessage): Promise<void> {
        if (m.id.startsWith('pending:') && m.idempotencyKey) {
          messageActions.upsert(stores.messages, roomId, [{ ...m, status: null, lifeControl: { ...m.lifeControl, createdAt: new Date(now()).toISOString() } }]);
          await postText(m.idempotencyKey, { text: m.text ?? '', clientId: m.idempotencyKey, ...(m.annotation ? { annotation: true } : {}), ...(m.replyTo ? { replyTo: m.replyTo } : {}) });
          return;
        }
        try {
          const { body } = await api.request<MessageAnswer | { data: ChatMessage }>(chatPaths.resend(roomId, m.id), { method: 'POST', notify: false });
          if (body?.data) messageActions.upsert(stores.messages, roomId, [body.data as ChatMessage]);
        } catch (e) {
          notify((e as Error).message, 'error');
        }
      },

      /** 'recarregar' on a file whose download failed: the server fetches it again from the reference it kept. */
      async reloadMedia(m: ChatMessage): Promise<void> {
        try {
          const { body } = await api.request<{ data: ChatMessage }>(chatPaths.reloadMessage(roomId), { method: 'PATCH', body: { messageId: m.id }, notify: false });
          if (body?.data) messageActions.upsert(stores.messages, roomId, [body.data]);
        } catch (e) {
          notify((e as Error).message, 'error');
        }
      },

      /** Deletes an own message ('Mensagem apagada'). */
      async remove(m: ChatMessage): Promise<void> {
        const body: DeleteMessageInput = { roomId, messageIntId: m.id, messageId: m.messageExtId, channelId: m.channelId, phone: room.chatId };
        try {
          const { body: answer } = await api.request<{ data?: ChatMessage }>(chatPaths.deleteMessage(), { method: 'POST', body, notify: false });
          const next = answer?.data ?? { ...m, status: { ...(m.status ?? {}), deleted: true } };
          messageActions.upsert(stores.messages, roomId, [next as ChatMessage]);
        } catch (e) {
          notify((e as Error).message, 'error');
        }
      },

      async react(m: ChatMessage, emoji: string): Promise<void> {
        try {
          const { body } = await api.request<{ data?: ChatMessage }>(chatPaths.reaction(roomId, m.messageExtId ?? m.id), { method: 'POST', body: { reaction: emoji }, notify: false });
          if (body?.data) messageActions.upsert(stores.messages, roomId, [body.data]);
        } catch (e) {
          notify((e as Error).message, 'error');
        }
      },

      /** Enter (push) / leave (pull) the chat: without agents the caller is the one. */
      async enter(): Promise<boolean> {
        return roomCall(chatPaths.push(roomId), 'PATCH', {});
      },
      async leave(): Promise<boolean> {
        return roomCall(chatPaths.pull(roomId), 'PATCH', {});
      },
      async close(input: CloseRoomInput, noMessage = false, research?: 'nps' | 'csat'): Promise<boolean> {
        if (research) return roomCall(chatPaths.askResearch(roomId), 'PATCH', { ...input, researchMethod: research });
        return roomCall(noMessage ? chatPaths.closeNoMessage(roomId) : chatPaths.close(roomId), 'PATCH', input);
      },
      /**
       * 'Responder' of an e-mail thread: POST /api/mail/:roomId/:messageId, or .../file with the
       * attachments as base64 (seed 001 §7). `key` is the draft's idempotency key: sending the
       * same draft again after a failure is the same reply.
       */
      async replyMail(messageId: string, draft: { html: string; cc: string[]; files: File[] }, key: string): Promise<boolean> {
        try {
          const base = { message: draft.html, cc: draft.cc, clientId: key };
          const attachments = await Promise.all(draft.files.map(async (f) => ({ fileName: f.name, mimeType: f.type || 'application/octet-stream', base64: await base64Of(f) })));
          const { body } = await api.request<MessageAnswer>(attachments.length ? chatPaths.mailReplyFile(roomId, messageId) : chatPaths.mailReply(roomId, messageId), {
            method: 'POST', body: attachments.length ? { ...base, attachments } : base, headers: { 'Idempotency-Key': key }, notify: false,
          });
          messageActions.upsert(stores.messages, roomId, [body.data as ChatMessage]);
          return true;
        } catch (e) {
          notify((e as Error).message, 'error');
          return false;
        }
      },
      /** Adds agents ('Agentes adicionados!'): to an internal chat by a member, to a customer chat by push (admins, supervisors). */
      async addAgents(agents: string[]): Promise<boolean> {
        const ok = room.internal
          ? await roomCall(chatPaths.internalAgents(roomId), 'PATCH', { agents })
          : await roomCall(chatPaths.push(roomId), 'PATCH', { agents });
        if (ok) notify(seedTexts.chat.agentsAdded, 'success');
        return ok;
      },
      /** Internal chat: the agent leaves it. */
      async leaveInternal(): Promise<boolean> {
        return roomCall(chatPaths.internalLeave(roomId), 'PATCH', {});
      },
      /** Transfer to agents ('Transferencia Realizada!') or move to queues ('Filas Atualizadas!'). */
      async transfer(value: TransferDialogInput): Promise<boolean> {
        const ok = value.kind === 'agents'
          ? await roomCall(chatPaths.transfer(roomId), 'PATCH', value.input)
          : await roomCall(chatPaths.moveQueues(roomId), 'PATCH', value.input);
        if (ok) notify(value.kind === 'agents' ? seedTexts.chat.transferDone : seedTexts.chat.queuesUpdated, 'success');
        return ok;
      },
      /** On hold with the chosen message (sent to the customer), or off with null. */
      async setOnHold(message: string | null): Promise<boolean> {
        return roomCall(chatPaths.room(roomId), 'PATCH', { onHold: message === null ? { active: false } : { active: true, message } });
      },
      /** The chat's tags ('Tags alteradas!'). */
      async setTags(tags: string[]): Promise<boolean> {
        const ok = await roomCall(chatPaths.room(roomId), 'PATCH', { tags });
        if (ok) notify(seedTexts.chat.tagsChanged, 'success');
        return ok;
      },
      /** 'Voltar ao início do bot': the chat goes back to the bot (it leaves the agent's list). */
      async restartBot(): Promise<boolean> {
        return roomCall(chatPaths.restart(roomId), 'POST', {});
      },
      /** 'Copiar link do chat': the public URL, which the server gives to attendants only (null after an error toast). */
      async publicLink(): Promise<string | null> {
        try {
          const { body } = await api.request<{ data: { path: string } }>(chatPaths.publicLink(roomId), { notify: false });
          return `${window.location.origin}${body.data.path}`;
        } catch (e) {
          notify((e as Error).message, 'error');
          return null;
        }
      },
      /** Mark read (unread false) / unread (true). */
      async setUnread(unread: boolean): Promise<boolean> {
        return roomCall(chatPaths.room(roomId), 'PATCH', { lastMessage: { unread } });
      },
    };

    async function roomCall(path: string, method: 'PATCH' | 'POST', body: unknown): Promise<boolean> {
      try {
        const { body: answer } = await api.request<RoomAnswer>(path, { method, body, notify: false });
        if (answer?.data?.id) roomActions.upsert(stores.rooms, [answer.data]);
        return true;
      } catch (e) {
        notify((e as Error).message, 'error');
        return false;
      }
    }
  }, [api, stores, user, notify, now, room.id, room.channel, room.channelId, room.chatId, room.internal]);
}

/** A file's bytes as base64 (no data: prefix). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('FileReader failed'));
    reader.readAsDataURL(file);
  });
}

export type ChatActions = ReturnType<typeof useChatActions>;
