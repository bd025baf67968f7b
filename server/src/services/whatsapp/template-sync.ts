import type { ProviderTemplate, TemplateEvent } from '@atendimento/integrations';
import { channelTypes, messages as texts } from '@atendimento/schemas';
import type { TemplateSet, TemplatesAnswer } from '@atendimento/schemas/chat/whatsapp';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { ChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import type { TemplateQuery, WhatsappTemplateRepository } from '../../db/repositories/whatsapp-template-repository';
import { AppError } from '../../errors';
import type { ProviderChannels } from './provider-channels';

/**
 * Templates of the channel types whose row says `templates` (docs/whatsapp.md "Templates"):
 * the sync from each provider, status webhooks keeping the stored rows fresh, and the list.
 */
export function createTemplateSync(deps: { templates: WhatsappTemplateRepository; channels: ChannelProviderRepository; providers: ProviderChannels; clock: Clock; logger: Logger }) {
  const { templates, providers, logger } = deps;

  return {
    /**
     * POST /api/cronjob/proccess/syncTemplates: pages through each template channel's list and
     * stores it in `whatsapp_templates` (rows the provider no longer lists go). All channels or
     * nothing: a failure answers 'Falha ao Sincronizar' and leaves the previous rows.
     */
    async sync(tenantId: string): Promise<{ channels: number; templates: number }> {
      const ids = await deps.channels.activeIdsOfTypes(tenantId, channelTypes((c) => c.templates));
      const lists: { channelId: string; origin: string; templates: ProviderTemplate[] }[] = [];
      for (const id of ids) {
        const found = await providers.find(tenantId, id);
        if (!found) continue;
        const adapter = providers.adapter(found);
        const list: ProviderTemplate[] = [];
        let next: string | undefined;
        try {
          for (let page = 0; page < 100; page++) {
            const answer = await adapter.listTemplates(next);
            list.push(...answer.templates);
            if (!answer.next) break;
            next = answer.next;
          }
        } catch (error) {
          logger.warn({ err: error, tenantId, channelId: id }, 'whatsapp.template_sync_failed');
          throw new AppError(502, 'template_sync_failed', texts.chat.templatesSyncFailed);
        }
        lists.push({ channelId: id, origin: found.channel.type, templates: list });
      }
      await templates.replaceChannels(tenantId, lists, deps.clock.now().toISOString());
      return { channels: lists.length, templates: lists.reduce((n, l) => n + l.templates.length, 0) };
    },

    /** Template status webhooks (APPROVED, REJECTED, PAUSED...) update the stored rows. */
    async applyEvents(tenantId: string, channelId: string, events: TemplateEvent[]): Promise<void> {
      const unknown = await templates.applyEvents(tenantId, channelId, events, deps.clock.now().toISOString());
      for (const event of unknown) logger.info({ tenantId, channelId, template: event.name }, 'whatsapp.template_event_unknown');
    },

    /**
     * GET /api/templates: one page of the tenant's stored templates (filters: channel, status,
     * languages, name), grouped in sets per channel (seed 001 §3 "Template message set").
     */
    async list(tenantId: string, query: TemplateQuery): Promise<TemplatesAnswer> {
      const { rows, count } = await templates.page(tenantId, query);
      const sets: TemplateSet[] = [];
      for (const { channelId, ...template } of rows) {
        const last = sets.at(-1);
        if (last && last.channels[0] === channelId) last.templates.push(template);
        else sets.push({ channels: [channelId], origin: template.origin, templates: [template] });
      }
      const next = query.offset + rows.length < count && rows.length > 0 ? query.offset + rows.length : null;
      return { meta: { count, limit: query.limit, offset: query.offset, next }, data: sets };
    },
  };
}

export type TemplateSync = ReturnType<typeof createTemplateSync>;
