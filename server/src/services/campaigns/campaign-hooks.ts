import type { StatusUpdate } from '@atendimento/integrations';
import { channelIs, format, messages as texts, type Channel, type Message, type Room } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import { afterCommit, type Transaction } from '../../db/knex';
import type { CampaignRepository } from '../../db/repositories/campaign-repository';
import type { Logger } from '../../logger';
import type { RecordChange } from '../changes/change-feed';
import { draftOf, type RoutingMessages } from '../routing/routing-messages';

/** How long after a campaign message a customer's message counts as its answer. */
export const REPLY_WINDOW_MS = 7 * 24 * 3_600_000;

/** The chat ids a campaign message to this chat may have used: a Brazilian mobile with and without its ninth digit. */
function replyIds(chatId: string): string[] {
  const ids = [chatId];
  if (/^55\d{11}$/.test(chatId) && chatId[4] === '9') ids.push(chatId.slice(0, 4) + chatId.slice(5));
  if (/^55\d{10}$/.test(chatId)) ids.push(`${chatId.slice(0, 4)}9${chatId.slice(4)}`);
  return ids;
}

/** What a group commit's read-ahead asked (`asked`) and which of those have a campaign message (`hits`), per tenant and channel. */
type ReadAhead = Map<string, { asked: Set<string>; hits: Set<string> }>;
const scopeOf = (tenantId: string, channelId: string) => `${tenantId}\u0001${channelId}`;

/** The campaign-side of provider webhooks: receipts of campaign messages and the customers' replies. */
export function createCampaignHooks(deps: {
  repo: CampaignRepository;
  clock: Clock;
  logger: Logger;
  msgs: RoutingMessages;
  /** Tags of the tenant by name (a campaign's tag is typed by name). */
  tagByName(trx: Transaction, tenantId: string, name: string): Promise<{ id: string; name: string } | null>;
  /** Delivers a stored automatic message after the commit. */
  dispatch(tenantId: string, messageId: string): Promise<unknown>;
  touched(tenantId: string, campaignId: string): void;
  roomById(trx: Transaction, tenantId: string, roomId: string): Promise<Room | null>;
}) {
  const { repo, clock } = deps;
  const readAhead = new WeakMap<Transaction, ReadAhead>();

  /** False when the read-ahead knows none of `ids` had a campaign message; true when the database must say. */
  function mayAnswer(trx: Transaction, tenantId: string, channelId: string, ids: string[]): boolean {
    const known = readAhead.get(trx)?.get(scopeOf(tenantId, channelId));
    return !known || ids.some((id) => !known.asked.has(id) || known.hits.has(id));
  }

  return {
    /**
     * A status webhook's receipt for one of our campaign messages (inside the webhook's
     * transaction): by the callback data we sent (`cmp:<job id>`) or by the provider id.
     * Answers false when the id is not a campaign message (the chat's messages take it).
     */
    async status(trx: Transaction, tenantId: string, channelId: string, update: StatusUpdate): Promise<boolean> {
      if (update.status === 'deleted') return false;
      const messageId = update.callbackData?.startsWith('cmp:') ? update.callbackData.slice(4) : null;
      const errors = update.errors?.map((e) => ({ title: e.title, code: e.code, ...(e.titleptBR && { titleptBR: e.titleptBR }) }));
      const campaignId = await repo.applyStatus(trx, tenantId, channelId, { providerId: update.externalId, messageId }, update.status, errors, update.timestamp || clock.now().toISOString(), clock.now().toISOString());
      if (!campaignId) return false;
      afterCommit(trx, () => deps.touched(tenantId, campaignId));
      return true;
    },

    /**
     * Ingest's read-ahead (docs/ingest.md): which of a group's chats have a campaign message in
     * the reply window, in one statement; `onInbound` skips its lookup for the others. Targets
     * are only ever added by a campaign's send, never by a customer's message, so a chat
     * without one at the start of the group has none at its end.
     */
    async prepareInbound(trx: Transaction, tenantId: string, channel: Channel, chatIds: string[]): Promise<void> {
      if (!channelIs(channel.type, 'whatsapp')) return;
      const ids = [...new Set(chatIds.flatMap(replyIds))];
      const hits = await repo.chatsWithTargets(trx, tenantId, channel.id, ids, new Date(clock.now().getTime() - REPLY_WINDOW_MS).toISOString());
      let known = readAhead.get(trx);
      if (!known) readAhead.set(trx, (known = new Map()));
      known.set(scopeOf(tenantId, channel.id), { asked: new Set(ids), hits });
    },

    /**
     * A customer's message on a WhatsApp channel that answers a campaign message sent to them
     * (the newest in the last 7 days): the message counts as interacted (a button reply as
     * clicked too), and the chat (created or reopened by ingest) gets the campaign's tag, a note
     * naming the campaign for the agents and, for a new chat, the campaign's default reply.
     */
    async onInbound(trx: Transaction, record: RecordChange, tenantId: string, event: { room: Room; roomCreated: boolean; message: Message; channel: Channel }): Promise<void> {
      const { message, channel } = event;
      if (message.author.type !== 'client' || !channelIs(channel.type, 'whatsapp') || !event.room.chatId) return;
      const ids = replyIds(event.room.chatId);
      if (!mayAnswer(trx, tenantId, channel.id, ids)) return;
      const now = clock.now();
      const target = await repo.replyTarget(trx, tenantId, channel.id, ids, new Date(now.getTime() - REPLY_WINDOW_MS).toISOString());
      if (!target) return;
      // A template's quick-reply button arrives as `button`, an interactive button as `button_reply`.
      const extra = message as Message & { button?: { text?: string }; interactive?: { type?: string } };
      const clicked = Boolean(extra.button) || extra.interactive?.type === 'button_reply';
      // The customer's next messages are the chat going on, not new answers: only a button
      // clicked later still counts (as clicked); the tag, the note and the flow came with the first.
      if (target.interacted && !clicked) return;
      const campaign = await repo.find(tenantId, target.campaignId, trx);
      if (!campaign) return;
      const answer = message.text ?? extra.button?.text ?? '';
      await repo.markInteracted(trx, tenantId, target, answer, clicked, now.toISOString());
      afterCommit(trx, () => deps.touched(tenantId, campaign.id));
      if (target.interacted) return;

      // The room as routing left it in this transaction (it may have queued or answered it).
      const current = (await deps.roomById(trx, tenantId, event.room.id)) ?? event.room;
      const draft = draftOf(current);
      if (campaign.tag) {
        const tag = await deps.tagByName(trx, tenantId, campaign.tag);
        const tagId = tag?.id ?? campaign.tag;
        const tagName = tag?.name ?? campaign.tag;
        if (!draft.room.tags.includes(tagId)) draft.room = { ...draft.room, tags: [...draft.room.tags, tagId], tagsNames: [...draft.room.tagsNames, tagName] };
      }
      await deps.msgs.note(trx, record, tenantId, draft, format(texts.campaigns.replyNote, { name: campaign.name }));
      // The campaign's flow: a chat nobody attends goes to the bot, which reads the flow from
      // the room and reports the run (docs/flows.md); an agent's chat stays theirs.
      const flow = campaign.flow?.trim() && !draft.room.inAttend && draft.room.agents.length === 0 ? await repo.flow(tenantId, campaign.flow.trim(), trx) : null;
      if (flow) {
        draft.room = { ...draft.room, destination: 'bot', flow };
        await deps.msgs.note(trx, record, tenantId, draft, format(texts.campaigns.flowNote, { flow: flow.name }));
      }
      if (event.roomCreated && campaign.defaultReply?.trim()) await deps.msgs.toCustomer(trx, record, tenantId, draft, campaign.defaultReply.trim());
      await deps.msgs.save(trx, record, tenantId, draft);
      const outbox = [...draft.outbox];
      if (outbox.length) afterCommit(trx, () => void Promise.all(outbox.map((id) => deps.dispatch(tenantId, id))).catch((err) => deps.logger.error({ err }, 'campaigns.default_reply_failed')));
    },
  };
}

export type CampaignHooks = ReturnType<typeof createCampaignHooks>;
