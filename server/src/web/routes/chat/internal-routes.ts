import { mailSchemas, messages as texts, type CreateInternalChatInput, type InternalAgentsInput } from '@atendimento/schemas';
import type { Chat } from '../../../services/chat';
import { validateWith } from '../../../services/chat/chat-validation';
import { access, type ApiRegistry } from '../../access';
import { bodyOrEmpty, scopeOf } from '../../request';

/**
 * Internal chats between agents (seed 001 §2 "Internal chat", §5; docs/email.md "Internal
 * chats"): start one, add agents, leave. Reading, writing and read/unread use the ordinary
 * room and message calls; only members get anything back (404 for everyone else).
 */
export function registerInternalChatRoutes(api: ApiRegistry, chat: Chat): void {
  api.add({
    method: 'POST',
    path: '/api/internalChats',
    access: access.member,
    handler: async (ctx) => {
      const input = validateWith<CreateInternalChatInput>('internal.create', mailSchemas.createInternalChat, bodyOrEmpty(ctx));
      const { room, created } = await chat.internal.create(await scopeOf(ctx, chat), input);
      ctx.status = created ? 201 : 200;
      ctx.body = { meta: { ok: true, created }, data: room };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/internalChats/:id/agents',
    access: access.member,
    handler: async (ctx) => {
      const input = validateWith<InternalAgentsInput>('internal.agents', mailSchemas.internalAgents, bodyOrEmpty(ctx));
      ctx.body = { meta: { ok: true, message: texts.chat.agentsAdded }, data: await chat.internal.addAgents(await scopeOf(ctx, chat), String(ctx.params.id), input.agents) };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/internalChats/:id/leave',
    access: access.member,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await chat.internal.leave(await scopeOf(ctx, chat), String(ctx.params.id)) };
    },
  });
}
