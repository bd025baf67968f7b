import {
  messages as texts,
  type CloseRoomInput, type CreateRoomInput, type MassCloseInput, type PatchRoomInput, type PushPullInput, type RoomSearchInput,
  type RoomTabId, type SendFixedMessageInput, type MoveQueuesInput, type TransferRoomInput, transferSchemas, type SendMessageInput, type SendReactionInput, type DeleteMessageInput,
} from '@atendimento/schemas';
import { badRequest, validationError } from '../../../errors';
import type { Chat } from '../../../services/chat';
import { validateChat, validateWith } from '../../../services/chat/chat-validation';
import { decodeCursor } from '../../../services/chat/cursor';
import { access, type ApiRegistry } from '../../access';
import { answerCreated, bodyOrEmpty, idempotencyKey, scopeOf } from '../../request';
import { readChatUpload, storeChatUpload } from './chat-upload';

/** `?filter=` of GET /api/rooms is JSON; a malformed one is the caller's mistake (400). */
function jsonParam(value: unknown): unknown {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(String(value));
  } catch {
    throw badRequest('filter_invalid', texts.chatServer.filterInvalid);
  }
}

/**
 * The console's chat calls (seed 001 §7, contract in schemas/src/chat/api.ts, docs/chat.md):
 * rooms, messages, search and the 5 s counters. Every handler hands the caller's scope
 * (`scopeOf`) to the chat services, which decide what the caller may see and do.
 */
export function registerChatRoomRoutes(api: ApiRegistry, chat: Chat): void {
  // ----- rooms -----
  api.add({
    method: 'GET',
    path: '/api/rooms',
    access: access.user,
    handler: async (ctx) => {
      const tab = String(ctx.query.tab ?? '') as RoomTabId;
      const page = await chat.rooms.list(await scopeOf(ctx, chat), {
        tab,
        filter: jsonParam(ctx.query.filter),
        order: ctx.query.order,
        limit: ctx.query.limit,
        history: ctx.query.history,
        after: decodeCursor(ctx.query.after),
      });
      ctx.body = { meta: { tab, next: page.next }, data: page.data };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<CreateRoomInput>('createRoom', bodyOrEmpty(ctx));
      const { room, created } = await chat.rooms.create(await scopeOf(ctx, chat), input);
      ctx.status = created ? 201 : 200;
      ctx.body = { meta: { ok: true, created }, data: room };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/massClose',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<MassCloseInput>('massClose', bodyOrEmpty(ctx));
      const result = await chat.rooms.massClose(await scopeOf(ctx, chat), input.chatIds, input.closedBy?.justify ?? null);
      ctx.body = { meta: { ok: true, message: texts.chat.chatsClosed, closed: result.closed.length }, data: result };
    },
  });

  // Registered before /api/rooms/:id/... so 'chatid' is never read as a room id.
  api.add({
    method: 'GET',
    path: '/api/rooms/chatid/:chatId',
    access: access.user,
    handler: async (ctx) => {
      const channelId = typeof ctx.query.channelId === 'string' && ctx.query.channelId ? ctx.query.channelId : null;
      const data = await chat.rooms.byChatId(await scopeOf(ctx, chat), String(ctx.params.chatId), channelId, ctx.query.limit);
      ctx.body = { meta: { count: data.length }, data };
    },
  });

  // Visitors and the public page read their one room with an anonymous token.
  api.add({
    method: 'GET',
    path: '/api/rooms/:id',
    access: access.anonymous,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await chat.rooms.get(await scopeOf(ctx, chat), String(ctx.params.id)) };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<PatchRoomInput>('patchRoom', bodyOrEmpty(ctx));
      const data = await chat.rooms.patch(await scopeOf(ctx, chat), String(ctx.params.id), input);
      ctx.body = { meta: { ok: true, ...(input.tags !== undefined && { message: texts.chat.tagsChanged }) }, data };
    },
  });

  for (const action of ['push', 'pull'] as const) {
    api.add({
      method: 'PATCH',
      path: `/api/rooms/:id/${action}`,
      access: access.user,
      handler: async (ctx) => {
        const input = validateChat<PushPullInput>('pushPull', bodyOrEmpty(ctx));
        const scope = await scopeOf(ctx, chat);
        const room = await chat.rooms[action](scope, String(ctx.params.id), input.agents);
        const me = scope.viewer.kind === 'user' ? scope.viewer.id : null;
        const others = action === 'push' && (input.agents ?? []).some((a: string | { id: string }) => (typeof a === 'string' ? a : a.id) !== me);
        ctx.body = { meta: { ok: true, ...(others && { message: texts.chat.agentsAdded }) }, data: room };
      },
    });
  }

  // 'Voltar ao início do bot' (docs/console-operations.md "Bot").
  api.add({
    method: 'POST',
    path: '/api/rooms/:id/restart',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await chat.bot.restart(await scopeOf(ctx, chat), String(ctx.params.id)) };
    },
  });

  // 'Copiar link do chat' (docs/console-operations.md "Public link"): for whoever attends it.
  api.add({
    method: 'GET',
    path: '/api/rooms/:id/publicLink',
    access: access.user,
    handler: async (ctx) => {
      const path = await chat.publicLink.path(await scopeOf(ctx, chat), String(ctx.params.id));
      ctx.set('Cache-Control', 'no-store');
      // A path: the console prefixes its own origin (the tenant host the agent is on).
      ctx.body = { meta: { ok: true }, data: { path } };
    },
  });

  // Close with an NPS or CSAT survey (docs/console-operations.md "Surveys").
  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/askresearch',
    access: access.user,
    handler: async (ctx) => {
      const body = bodyOrEmpty(ctx) as Record<string, unknown> | null;
      const method = body && typeof body === 'object' ? body.researchMethod : undefined;
      if (method !== 'nps' && method !== 'csat') throw validationError([{ field: 'researchMethod', message: texts.validation.invalidValue }]);
      const { researchMethod: _method, ...rest } = body as Record<string, unknown>;
      const input = validateChat<CloseRoomInput>('closeRoom', rest);
      const room = await chat.rooms.close(await scopeOf(ctx, chat), String(ctx.params.id), input, false, method);
      ctx.body = { meta: { ok: true }, data: room };
    },
  });

  // Transfers (docs/transfers.md): the dialogs' lists, to agents, to queues.
  api.add({
    method: 'GET',
    path: '/api/rooms/:id/transferTargets',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await chat.transfers.targets(await scopeOf(ctx, chat), String(ctx.params.id)) };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/transfer',
    access: access.user,
    handler: async (ctx) => {
      const input = validateWith<TransferRoomInput>('transfer.transfer', transferSchemas.transfer, bodyOrEmpty(ctx));
      const room = await chat.transfers.toAgents(await scopeOf(ctx, chat), String(ctx.params.id), input);
      ctx.body = { meta: { ok: true, message: texts.chat.transferDone }, data: room };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/queues',
    access: access.user,
    handler: async (ctx) => {
      const input = validateWith<MoveQueuesInput>('transfer.moveQueues', transferSchemas.moveQueues, bodyOrEmpty(ctx));
      const room = await chat.transfers.toQueues(await scopeOf(ctx, chat), String(ctx.params.id), input);
      ctx.body = { meta: { ok: true, message: texts.chat.queuesUpdated }, data: room };
    },
  });

  for (const [action, noMessage] of [['close', false], ['closeNoMessage', true]] as const) {
    api.add({
      method: 'PATCH',
      path: `/api/rooms/:id/${action}`,
      access: access.user,
      handler: async (ctx) => {
        const input = validateChat<CloseRoomInput>('closeRoom', bodyOrEmpty(ctx));
        const room = await chat.rooms.close(await scopeOf(ctx, chat), String(ctx.params.id), input, noMessage);
        ctx.body = { meta: { ok: true }, data: room };
      },
    });
  }

  // ----- messages -----
  api.add({
    method: 'GET',
    path: '/api/rooms/:id/messages',
    access: access.anonymous,
    handler: async (ctx) => {
      const page = await chat.messages.page(await scopeOf(ctx, chat), String(ctx.params.id), decodeCursor(ctx.query.before), ctx.query.limit);
      ctx.body = { meta: { before: page.before }, data: page.data };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/rooms/:id/messages/:messageId',
    access: access.anonymous,
    handler: async (ctx) => {
      ctx.body = { data: await chat.messages.getOne(await scopeOf(ctx, chat), String(ctx.params.id), String(ctx.params.messageId)) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<SendMessageInput>('sendMessage', bodyOrEmpty(ctx));
      const result = await chat.messages.sendText(await scopeOf(ctx, chat), String(ctx.params.id), input, idempotencyKey(ctx));
      answerCreated(ctx, result, result.message);
    },
  });

  // Multipart; `?type=` lets an oversized body be refused (413) before a byte of it is read.
  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/file',
    access: access.user,
    handler: async (ctx) => {
      const scope = await scopeOf(ctx, chat);
      const roomId = String(ctx.params.id);
      // Refuse strangers before reading the file (and before writing anything to disk).
      await chat.messages.assertWritable(scope, roomId, ctx.query.annotation === 'true');
      const upload = await readChatUpload(ctx, chat.blobs);
      const stored = await storeChatUpload(chat.blobs, scope.tenantId, upload);
      const result = await chat.messages.sendFile(scope, roomId, stored, {
        caption: upload.fields.caption?.slice(0, 4000),
        annotation: upload.fields.annotation === 'true' || ctx.query.annotation === 'true',
        clientId: upload.fields.clientId?.slice(0, 100) || idempotencyKey(ctx) || undefined,
        replyTo: upload.fields.replyTo?.slice(0, 200) || undefined,
      });
      answerCreated(ctx, result, result.message);
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/fileUrl',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<SendFixedMessageInput>('sendFixedMessage', bodyOrEmpty(ctx));
      const result = await chat.messages.sendFixed(await scopeOf(ctx, chat), String(ctx.params.id), input.fixedMessageId, input.clientId ?? idempotencyKey(ctx));
      answerCreated(ctx, result, result.message);
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/:extId/sendReaction',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<SendReactionInput>('sendReaction', bodyOrEmpty(ctx));
      const message = await chat.messages.react(await scopeOf(ctx, chat), String(ctx.params.id), String(ctx.params.extId), input.reaction);
      ctx.body = { meta: { ok: true, created: false }, data: message };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/resendMessage/:roomId/message/:messageId',
    access: access.user,
    handler: async (ctx) => {
      const message = await chat.messages.resend(await scopeOf(ctx, chat), String(ctx.params.roomId), String(ctx.params.messageId));
      ctx.body = { meta: { ok: true, created: false }, data: message };
    },
  });

  // The seed's delete call keeps its provider-looking path; it deletes on any channel.
  api.add({
    method: 'POST',
    path: '/api/zApi/deleteMessage',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<DeleteMessageInput>('deleteMessage', bodyOrEmpty(ctx));
      const message = await chat.messages.remove(await scopeOf(ctx, chat), input.roomId, input.messageIntId);
      ctx.body = { meta: { ok: true, created: false }, data: message };
    },
  });

  // ----- search and counters -----
  api.add({
    method: 'POST',
    path: '/api/mongodb/search',
    access: access.user,
    handler: async (ctx) => {
      const input = validateChat<RoomSearchInput>('search', bodyOrEmpty(ctx));
      const found = await chat.search.search(await scopeOf(ctx, chat), input);
      const ids = found.rooms.map((r) => r.id);
      ctx.body = { meta: { count: ids.length, collection: 'rooms', busca: found.busca, last: ids[ids.length - 1] ?? null }, data: ids, rooms: found.rooms };
    },
  });

  // Polled every 5 s (seed 002 §7); '/counter' and '/read' are the seed's own paths.
  for (const path of ['/api/counter', '/counter']) {
    api.add({
      method: 'GET',
      path,
      access: access.user,
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { data: await chat.search.counters(await scopeOf(ctx, chat)) };
      },
    });
  }
  for (const path of ['/api/read', '/read']) {
    api.add({
      method: 'GET',
      path,
      access: access.user,
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { data: await chat.search.read(await scopeOf(ctx, chat)) };
      },
    });
  }
}
