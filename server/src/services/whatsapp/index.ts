import type { Chat } from '../chat';
import { createDepartmentRepository } from '../../db/repositories/department-repository';
import { createWhatsappTemplateRepository } from '../../db/repositories/whatsapp-template-repository';
import { createActiveMessage } from './active-message';
import { createMediaReload } from './media-reload';
import { createTemplateSync } from './template-sync';
import { createWebhookIngest } from './webhook-ingest';
import { CHANNELS_COLLECTION } from '../channels/channel-admin-service';

/**
 * Provider channels and the WhatsApp features (docs/whatsapp.md, docs/channels.md), wired in
 * one place on top of the chat domain: webhooks of every provider channel, media fetch and
 * 'recarregar', template sync and list, and 'Mensagem Ativa'. The outbound side (the provider
 * sender and the 24-hour window) is part of the chat domain's senders (services/chat/index.ts),
 * since every send goes through the chat's message service.
 */
export function createWhatsapp(options: { chat: Chat; campaignStatus?: Parameters<typeof createWebhookIngest>[1]['campaignStatus'] }) {
  const { chat } = options;
  const { deps, providers } = chat;
  const templates = createTemplateSync({ templates: createWhatsappTemplateRepository(deps.db), channels: chat.channels, providers, clock: deps.clock, logger: deps.logger });
  const media = createMediaReload(deps, providers);
  // A channel edited on the channels screen (secret, active, provider settings) is read again by the next webhook.
  deps.feed.onChanges((tenantId, events) => {
    for (const e of events) if (e.collection === CHANNELS_COLLECTION) providers.forget(tenantId, e.id);
  });
  const webhooks = createWebhookIngest(deps, { providers, ingest: chat.ingest, statusIn: chat.messages.applyStatusIn, media, templates, campaignStatus: options.campaignStatus });
  const activeMessage = createActiveMessage({ ...deps, departments: createDepartmentRepository(deps.db) }, chat.rooms, chat.messages);
  return { chat, webhooks, templates, media, activeMessage };
}

export type Whatsapp = ReturnType<typeof createWhatsapp>;
