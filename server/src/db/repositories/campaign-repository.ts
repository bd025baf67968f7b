import type { Knex } from 'knex';
import type { Campaign, CampaignCounters, CampaignMessage, CampaignMessageError, CampaignStatus } from '@atendimento/schemas/campaigns';
import { dialectOf, parseJson, toJson, type Db } from '../knex';
import { listArg, prepared, whereOneOf } from '../prepared';

type Conn = Knex | Knex.Transaction;

/** A campaign row as the queue and the screens read it (counters are added by the caller when needed). */
export type CampaignRow = Omit<Campaign, 'counters'> & { tenantId: string; total: number; createdBy: string | null };

export interface NewCampaignMessage {
  row: number;
  id: string;
  chatId: string;
  displayName: string | null;
  params: string[];
  text: string;
}

/** A job of the send queue: one campaign message claimed by this process. */
export interface QueueJob {
  tenantId: string;
  campaignId: string;
  row: number;
  id: string;
  channelId: string;
  chatId: string;
  params: string[];
  attempts: number;
}

export interface MessageFilter {
  status?: 'read' | 'delivered' | 'sent' | 'error' | 'notSent' | 'interacted' | 'clicked';
  q?: string;
  limit: number;
  offset: number;
}

const RANK: Record<Exclude<CampaignStatus, 'failed'>, number> = { sent: 1, delivered: 2, read: 3 };

function campaignFromRow(row: Record<string, unknown>): CampaignRow {
  const data = parseJson<Record<string, any>>(row.data, {});
  return {
    tenantId: String(row.tenant_id),
    id: String(row.id),
    name: String(row.name),
    channelId: String(row.channel_id),
    template: data.template ?? { name: '', language: '' },
    defaultReply: data.defaultReply ?? null,
    tag: data.tag ?? null,
    description: data.description ?? null,
    flow: data.flow ?? null,
    file: data.file ?? null,
    startDate: data.startDate ?? null,
    endDate: data.endDate ?? null,
    startAt: data.startAt ?? null,
    endAt: data.endAt ?? null,
    comercialTime: Boolean(data.comercialTime),
    weekEnd: data.weekEnd !== false,
    paused: Boolean(row.paused),
    proccessed: Boolean(row.proccessed),
    proccessedAt: (row.proccessed_at as string | null) ?? null,
    campaign: Boolean(row.campaign),
    total: Number(row.total ?? 0),
    createdBy: (row.created_by as string | null) ?? null,
    lifeControl: { createdAt: String(row.created_at), deletedAt: (row.deleted_at as string | null) ?? null },
  };
}

function messageFromRow(row: Record<string, unknown>, tag: string | null): CampaignMessage {
  return {
    id: String(row.id),
    campaignId: String(row.campaign_id),
    row: Number(row.row_no),
    chatId: String(row.chat_id),
    displayName: (row.display_name as string | null) ?? null,
    text: String(row.text),
    type: 'template',
    status: parseJson<CampaignMessage['status']>(row.status, null),
    proccessed: row.state === 'done' || row.state === 'failed',
    tag: tag ? { name: tag } : null,
    answer: (row.answer as string | null) ?? null,
    interacted: Boolean(row.interacted),
    clicked: Boolean(row.clicked),
  };
}

const emptyCounters = (): CampaignCounters => ({ total: 0, done: 0, sent: 0, delivered: 0, read: 0, interacted: 0, clicked: 0, error: 0 });

/** Campaign messages a customer's message on the channel may answer: sent to one of the chat ids since `since`, not failed. */
function replyCandidates(k: Knex | Knex.Transaction, tenantId: string, channelId: string, since: string): Knex.QueryBuilder {
  return k('campaign_messages').where({ tenant_id: tenantId, channel_id: channelId }).andWhere('sent_at', '>=', since).andWhere('failed', false);
}

/** Campaigns, their messages (the send queue) and the per-channel pacing rows. SQL only here. */
export function createCampaignRepository(db: Db) {
  const pg = dialectOf(db) === 'pg';

  const countersSelect = (q: Conn) => [
    q.raw('count(*) as total'),
    q.raw(`sum(case when state in ('done','failed') then 1 else 0 end) as done`),
    q.raw('sum(case when status_rank >= 1 then 1 else 0 end) as sent'),
    q.raw('sum(case when status_rank >= 2 then 1 else 0 end) as delivered'),
    q.raw('sum(case when status_rank >= 3 then 1 else 0 end) as read'),
    q.raw('sum(case when interacted = ? then 1 else 0 end) as interacted', [true]),
    q.raw('sum(case when clicked = ? then 1 else 0 end) as clicked', [true]),
    q.raw('sum(case when failed = ? then 1 else 0 end) as error', [true]),
  ];
  const toCounters = (row: Record<string, unknown> | undefined): CampaignCounters => {
    const c = emptyCounters();
    if (!row) return c;
    for (const key of Object.keys(c) as (keyof CampaignCounters)[]) c[key] = Number(row[key] ?? 0);
    return c;
  };

  function filtered(tenantId: string, campaignId: string, filter: Omit<MessageFilter, 'limit' | 'offset'>, q: Conn = db) {
    const qb = q('campaign_messages').where({ tenant_id: tenantId, campaign_id: campaignId });
    switch (filter.status) {
      case 'read': qb.andWhere('status_rank', '>=', 3); break;
      case 'delivered': qb.andWhere('status_rank', 2); break;
      case 'sent': qb.andWhere('status_rank', 1).andWhere('failed', false); break;
      case 'error': qb.andWhere('failed', true); break;
      case 'notSent': qb.andWhere('status_rank', 0).andWhere('failed', false); break;
      case 'interacted': qb.andWhere('interacted', true); break;
      case 'clicked': qb.andWhere('clicked', true); break;
      default: break;
    }
    if (filter.q) {
      const term = `%${filter.q.toLowerCase()}%`;
      qb.andWhere((w) => w.whereRaw('lower(display_name) like ?', [term]).orWhere('chat_id', 'like', `%${filter.q!.replace(/\D/g, '') || filter.q}%`));
    }
    return qb;
  }

  return {
    async insertCampaign(trx: Knex.Transaction, tenantId: string, c: Omit<CampaignRow, 'tenantId'>, data: Record<string, unknown>): Promise<void> {
      await trx('campaigns').insert({
        tenant_id: tenantId, id: c.id, name: c.name, channel_id: c.channelId, paused: c.paused, proccessed: c.proccessed, proccessed_at: c.proccessedAt,
        campaign: c.campaign, total: c.total, data: toJson(data), created_by: c.createdBy, created_at: c.lifeControl.createdAt, updated_at: c.lifeControl.createdAt, deleted_at: null,
      });
    },

    async insertMessages(trx: Knex.Transaction, tenantId: string, campaignId: string, channelId: string, rows: NewCampaignMessage[], now: string): Promise<void> {
      // 13 columns per row: 500 rows stay under SQLite's and PostgreSQL's bound-parameter limits.
      for (let i = 0; i < rows.length; i += 500) {
        await trx('campaign_messages').insert(rows.slice(i, i + 500).map((m) => ({
          tenant_id: tenantId, campaign_id: campaignId, row_no: m.row, id: m.id, channel_id: channelId, chat_id: m.chatId, display_name: m.displayName,
          params: toJson(m.params), text: m.text, state: 'queued', next_at: now, attempts: 0, status_rank: 0, failed: false, interacted: false, clicked: false, updated_at: now,
        })));
      }
    },

    async find(tenantId: string, id: string, q: Conn = db): Promise<CampaignRow | null> {
      const row = await q('campaigns').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first();
      return row ? campaignFromRow(row) : null;
    },

    /** Newest first (seed 000 §2); `external` false keeps only campaign=true. */
    async list(tenantId: string, options: { external: boolean; limit: number; offset: number }, q: Conn = db): Promise<{ rows: CampaignRow[]; count: number }> {
      const base = q('campaigns').where({ tenant_id: tenantId }).whereNull('deleted_at');
      if (!options.external) base.andWhere('campaign', true);
      const [rows, count] = await Promise.all([
        base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(options.limit).offset(options.offset),
        base.clone().count({ n: '*' }).first(),
      ]);
      return { rows: rows.map(campaignFromRow), count: Number(count?.n ?? 0) };
    },

    async counters(tenantId: string, campaignId: string, q: Conn = db): Promise<CampaignCounters> {
      const row = await q('campaign_messages').where({ tenant_id: tenantId, campaign_id: campaignId }).first(countersSelect(q));
      return toCounters(row);
    },

    /** Counters of several campaigns in one statement (the list's progress column). */
    async countersOf(tenantId: string, campaignIds: string[], q: Conn = db): Promise<Map<string, CampaignCounters>> {
      const out = new Map<string, CampaignCounters>();
      if (campaignIds.length === 0) return out;
      const rows = await q('campaign_messages').where({ tenant_id: tenantId }).whereIn('campaign_id', campaignIds).groupBy('campaign_id').select('campaign_id', ...countersSelect(q));
      for (const row of rows) out.set(String(row.campaign_id), toCounters(row));
      return out;
    },

    async messages(tenantId: string, campaign: CampaignRow, filter: MessageFilter): Promise<{ rows: CampaignMessage[]; count: number }> {
      const [rows, count] = await Promise.all([
        filtered(tenantId, campaign.id, filter).orderBy([{ column: 'display_name' }, { column: 'row_no' }]).limit(filter.limit).offset(filter.offset),
        filtered(tenantId, campaign.id, filter).count({ n: '*' }).first(),
      ]);
      return { rows: rows.map((r) => messageFromRow(r, campaign.tag)), count: Number(count?.n ?? 0) };
    },

    async setPaused(trx: Knex.Transaction, tenantId: string, id: string, paused: boolean, now: string): Promise<void> {
      await trx('campaigns').where({ tenant_id: tenantId, id }).update({ paused, updated_at: now });
    },

    /** Locks the campaign row (pause and the queue's "finished" check take it in this order). */
    async lock(trx: Knex.Transaction, tenantId: string, id: string): Promise<CampaignRow | null> {
      const qb = trx('campaigns').where({ tenant_id: tenantId, id });
      if (pg) qb.forUpdate();
      const row = await qb.first();
      return row ? campaignFromRow(row) : null;
    },

    // ---- the send queue --------------------------------------------------------------------

    /** Campaigns that may have work, across tenants (the queue's scan). */
    async runnable(): Promise<CampaignRow[]> {
      const rows = await db('campaigns').where({ proccessed: false, paused: false }).whereNull('deleted_at').orderBy('created_at').limit(500);
      return rows.map(campaignFromRow);
    },

    /** Paused flags of a few campaigns (checked while a batch is being sent: pause within a second). */
    async pausedOf(tenantId: string, ids: string[]): Promise<Set<string>> {
      const rows = await db('campaigns').where({ tenant_id: tenantId }).whereIn('id', ids).andWhere((w) => w.where('paused', true).orWhereNotNull('deleted_at')).select('id');
      return new Set(rows.map((r) => String(r.id)));
    },

    /**
     * Claims up to `limit` due messages of a campaign: state queued → sending, committed before
     * any provider call, so a crash leaves them visibly in flight (never silently re-sent at once).
     * PostgreSQL: FOR UPDATE SKIP LOCKED, so two processes never claim the same row.
     */
    async claim(trx: Knex.Transaction, tenantId: string, campaignId: string, now: string, limit: number, worker: string): Promise<QueueJob[]> {
      const qb = trx('campaign_messages')
        .where({ tenant_id: tenantId, campaign_id: campaignId, state: 'queued' })
        .andWhere('next_at', '<=', now)
        .orderBy('row_no')
        .limit(limit)
        .select('tenant_id', 'campaign_id', 'row_no', 'id', 'channel_id', 'chat_id', 'params', 'attempts');
      if (pg) qb.forUpdate().skipLocked();
      const rows = await qb;
      if (rows.length === 0) return [];
      await trx('campaign_messages')
        .where({ tenant_id: tenantId, campaign_id: campaignId, state: 'queued' })
        .whereIn('row_no', rows.map((r) => r.row_no))
        .update({ state: 'sending', claimed_at: now, claimed_by: worker, attempts: trx.raw('attempts + 1'), updated_at: now });
      return rows.map((r) => ({
        tenantId: String(r.tenant_id), campaignId: String(r.campaign_id), row: Number(r.row_no), id: String(r.id), channelId: String(r.channel_id),
        chatId: String(r.chat_id), params: parseJson<string[]>(r.params, []), attempts: Number(r.attempts) + 1,
      }));
    },

    /** Claims a batch and reserves its send slots in one transaction; `onStart` gets when the first may go. */
    async claimBatch(tenantId: string, campaignId: string, channelId: string, now: string, limit: number, worker: string, intervalMs: number, onStart: (at: number) => void): Promise<QueueJob[]> {
      return db.transaction(async (trx) => {
        const jobs = await this.claim(trx, tenantId, campaignId, now, limit, worker);
        if (jobs.length) onStart(await this.reserveSlots(trx, tenantId, channelId, Date.parse(now), jobs.length, intervalMs));
        return jobs;
      });
    },

    /**
     * Reserves `n` send slots of a channel `intervalMs` apart, after any slot already given out
     * and after a throttling pause: answers when the first may go. The row lock makes processes
     * share one rate.
     */
    async reserveSlots(trx: Knex.Transaction, tenantId: string, channelId: string, now: number, n: number, intervalMs: number): Promise<number> {
      const qb = trx('campaign_pacing').where({ tenant_id: tenantId, channel_id: channelId });
      if (pg) qb.forUpdate();
      const row = await qb.first();
      const next = row ? Date.parse(String(row.next_slot_at)) : 0;
      const throttled = row?.throttled_until ? Date.parse(String(row.throttled_until)) : 0;
      // A batch that follows on the heels of the previous one continues its slots (up to 1 s
      // behind): the time between two batches is not lost, so the rate holds over minutes.
      const start = Math.max(throttled, next > now - 1000 ? next : now);
      const after = new Date(start + n * intervalMs).toISOString();
      if (row) await trx('campaign_pacing').where({ tenant_id: tenantId, channel_id: channelId }).update({ next_slot_at: after });
      else await trx('campaign_pacing').insert({ tenant_id: tenantId, channel_id: channelId, next_slot_at: after, throttled_until: null, throttle_level: 0 });
      return start;
    },

    /** The provider throttled the channel: no slot before `until`; answers the new back-off level. */
    async throttle(tenantId: string, channelId: string, now: number, baseMs: number, maxMs: number): Promise<number> {
      return db.transaction(async (trx) => {
        const qb = trx('campaign_pacing').where({ tenant_id: tenantId, channel_id: channelId });
        if (pg) qb.forUpdate();
        const row = await qb.first();
        const until = row?.throttled_until ? Date.parse(String(row.throttled_until)) : 0;
        // One burst of refusals (a batch in flight) counts once: the level rises only after the pause ended.
        const level = until > now ? Number(row?.throttle_level ?? 0) : Math.min(20, Number(row?.throttle_level ?? 0) + 1);
        const wait = Math.min(maxMs, baseMs * 2 ** (level - 1));
        const at = new Date(Math.max(until, now + wait)).toISOString();
        if (row) await trx('campaign_pacing').where({ tenant_id: tenantId, channel_id: channelId }).update({ throttled_until: at, throttle_level: level, next_slot_at: at });
        else await trx('campaign_pacing').insert({ tenant_id: tenantId, channel_id: channelId, next_slot_at: at, throttled_until: at, throttle_level: level });
        return level;
      });
    },

    /** A send went through after the pause: the back-off level starts over. */
    async clearThrottle(tenantId: string, channelId: string, now: number): Promise<void> {
      await db('campaign_pacing').where({ tenant_id: tenantId, channel_id: channelId }).andWhere('throttle_level', '>', 0).andWhere('throttled_until', '<', new Date(now).toISOString()).update({ throttle_level: 0 });
    },

    /**
     * The provider accepted these messages: each id is written together with `done` (one update
     * per job, so the id is never lost once the job counts as done; a receipt may already have
     * matched it). The queue writes answers behind, several in one transaction. The rows are
     * locked by one `ORDER BY id … FOR UPDATE` per tenant, the order `renewClaims` locks them
     * in: the two never wait on each other in a cycle (CI saw a deadlock abort a batch of
     * answers when they were locked one by one in answer order).
     */
    async acceptedMany(items: { tenantId: string; id: string; providerId: string; sentAt: string }[], now: string): Promise<void> {
      if (items.length === 0) return;
      const byTenant = new Map<string, typeof items>();
      for (const item of items) {
        const list = byTenant.get(item.tenantId);
        if (list) list.push(item);
        else byTenant.set(item.tenantId, [item]);
      }
      await db.transaction(async (trx) => {
        for (const tenantId of [...byTenant.keys()].sort()) {
          const list = byTenant.get(tenantId)!;
          for (let i = 0; i < list.length; i += 500) {
            const chunk = list.slice(i, i + 500);
            const qb = trx('campaign_messages').where({ tenant_id: tenantId }).whereIn('id', chunk.map((item) => item.id)).orderBy('id')
              .select('id', 'campaign_id', 'row_no', 'state', 'status', 'status_rank', 'failed', 'sent_at');
            if (pg) qb.forUpdate();
            const rows = new Map((await qb).map((row) => [String(row.id), row]));
            for (const item of chunk) {
              const row = rows.get(item.id);
              if (!row) continue;
              const status = parseJson<Record<string, unknown>>(row.status, {}) ?? {};
              const open = row.state === 'sending' || row.state === 'queued';
              await trx('campaign_messages').where({ tenant_id: tenantId, campaign_id: row.campaign_id, row_no: row.row_no }).update({
                provider_id: item.providerId, updated_at: now,
                ...(open && { state: 'done', sent_at: row.sent_at ?? item.sentAt }),
                ...(!row.failed && Number(row.status_rank) < 1 && { status_rank: 1, status: toJson({ ...status, sent: item.sentAt }) }),
              });
            }
          }
        }
      });
    },

    /** The provider refused the job for good; only while `worker` still holds it (a lease it lost belongs to another send). */
    async failed(tenantId: string, id: string, worker: string, errors: CampaignMessageError[], now: string): Promise<void> {
      await db('campaign_messages').where({ tenant_id: tenantId, id, state: 'sending', claimed_by: worker }).update({ state: 'failed', failed: true, status: toJson({ errors }), updated_at: now });
    },

    /**
     * Back to the queue (throttled, transient error, paused while claimed), due at `nextAt`.
     * Only jobs `worker` still holds: one whose lease ended belongs to whoever claimed it next.
     */
    async requeue(tenantId: string, ids: string[], worker: string, nextAt: string, now: string, countAttempt: boolean): Promise<void> {
      if (ids.length === 0) return;
      for (let i = 0; i < ids.length; i += 500) {
        await db('campaign_messages').where({ tenant_id: tenantId, state: 'sending', claimed_by: worker }).whereIn('id', ids.slice(i, i + 500)).update({
          state: 'queued', next_at: nextAt, claimed_at: null, claimed_by: null, updated_at: now, ...(countAttempt ? {} : { attempts: db.raw('case when attempts > 0 then attempts - 1 else 0 end') }),
        });
      }
    },

    /**
     * The worker is still sending these jobs: their lease starts again at `now`. Answers the
     * ones it still holds (not settled, not recovered by another process after a lease ended):
     * only those may be sent (docs/campaigns.md "Leases").
     */
    async renewClaims(tenantId: string, ids: string[], worker: string, now: string): Promise<Set<string>> {
      const held = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const mine = (q: Conn) => q('campaign_messages').where({ tenant_id: tenantId, state: 'sending', claimed_by: worker }).whereIn('id', chunk);
        // PostgreSQL: locked in key order first (an UPDATE locks in scan order), as `acceptedMany` does.
        const rows = pg
          ? await db.transaction(async (trx) => {
            await mine(trx).orderBy('id').forUpdate().select('id');
            return mine(trx).update({ claimed_at: now }).returning('id');
          })
          : await mine(db).update({ claimed_at: now }).returning('id');
        for (const r of rows as { id: string }[]) held.add(String(r.id));
      }
      return held;
    },

    /**
     * Jobs left in 'sending' by a process that died (or whose call's outcome is unknown) for
     * longer than the lease: a receipt that carried their key would have made them done, so
     * the provider never saw them and they go back to the queue (docs/campaigns.md).
     */
    async recoverStale(claimedBefore: string, now: string): Promise<number> {
      return db('campaign_messages').where({ state: 'sending' }).andWhere('claimed_at', '<', claimedBefore).update({ state: 'queued', next_at: now, claimed_at: null, claimed_by: null, updated_at: now });
    },

    /** Marks the campaign proccessed once no message is queued or in flight. Answers whether it did. */
    async finishIfDone(tenantId: string, campaignId: string, now: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const open = await trx('campaign_messages').where({ tenant_id: tenantId, campaign_id: campaignId }).whereIn('state', ['queued', 'sending']).first('row_no');
        if (open) return false;
        const n = await trx('campaigns').where({ tenant_id: tenantId, id: campaignId, proccessed: false }).update({ proccessed: true, proccessed_at: now, updated_at: now });
        return n > 0;
      });
    },

    /** The window ended for good: what was never sent stays 'Não enviado' and the campaign is done. */
    async expire(tenantId: string, campaignId: string, now: string): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('campaign_messages').where({ tenant_id: tenantId, campaign_id: campaignId, state: 'queued' }).update({ state: 'expired', updated_at: now });
        await trx('campaigns').where({ tenant_id: tenantId, id: campaignId, proccessed: false }).update({ proccessed: true, proccessed_at: now, updated_at: now });
      });
    },

    // ---- receipts and replies --------------------------------------------------------------

    /**
     * A status webhook for one of our campaign messages, found by the provider id or by the key
     * we sent as callback data (a receipt may overtake the send's answer, or the process may
     * have died before writing the id). Monotonic: read never goes back; failed only before
     * delivery, then terminal. Answers the campaign id, or null when it is not a campaign message.
     */
    async applyStatus(trx: Knex.Transaction, tenantId: string, channelId: string, ref: { providerId: string; messageId?: string | null }, status: CampaignStatus, errors: CampaignMessageError[] | undefined, at: string, now: string): Promise<string | null> {
      const qb = trx('campaign_messages').where({ tenant_id: tenantId, channel_id: channelId });
      if (ref.messageId) qb.andWhere('id', ref.messageId);
      else qb.andWhere('provider_id', ref.providerId);
      if (pg) qb.forUpdate();
      const row = await qb.first();
      if (!row) return null;
      const current = parseJson<Record<string, unknown>>(row.status, {}) ?? {};
      const rank = Number(row.status_rank);
      const update: Record<string, unknown> = { updated_at: now };
      // The receipt proves the provider has it: a job still in flight is done, with the id.
      if (row.state === 'sending' || row.state === 'queued') Object.assign(update, { state: 'done', sent_at: row.sent_at ?? at });
      if (!row.provider_id) update.provider_id = ref.providerId;
      if (status === 'failed') {
        if (!row.failed && rank < 2) Object.assign(update, { failed: true, state: 'failed', status: toJson({ ...current, errors: errors ?? [{ title: 'failed' }] }) });
      } else if (!row.failed) {
        const next = RANK[status];
        if (next > rank) {
          const stamps: Record<string, unknown> = { ...current };
          for (const [name, r] of Object.entries(RANK)) if (r <= next && !stamps[name]) stamps[name] = at;
          Object.assign(update, { status_rank: next, status: toJson(stamps) });
        }
      }
      await trx('campaign_messages').where({ tenant_id: tenantId, campaign_id: row.campaign_id, row_no: row.row_no }).update(update);
      return String(row.campaign_id);
    },

    /** The newest campaign message sent to one of these chat ids on the channel since `since` (a reply's campaign). */
    async replyTarget(trx: Knex.Transaction, tenantId: string, channelId: string, chatIds: string[], since: string): Promise<{ id: string; campaignId: string; row: number; interacted: boolean } | null> {
      // Every inbound WhatsApp message asks this: compiled once per number of chat ids (prepared.ts).
      const { rows } = await prepared(trx, `campaigns.replyTarget:${chatIds.length}`, [tenantId, channelId, since, ...chatIds], (k, [t, c, from, ...ids]) =>
        replyCandidates(k, t!, c!, from!).whereIn('chat_id', ids as string[])
          .orderBy('sent_at', 'desc').first('id', 'campaign_id', 'row_no', 'interacted'));
      const row = rows[0];
      return row ? { id: String(row.id), campaignId: String(row.campaign_id), row: Number(row.row_no), interacted: Boolean(row.interacted) } : null;
    },

    /**
     * Of these chat ids, the ones `replyTarget` could find a message for since `since` (a group
     * commit's read-ahead, docs/ingest.md): a chat not in the answer answers no campaign.
     */
    async chatsWithTargets(trx: Knex.Transaction, tenantId: string, channelId: string, chatIds: string[], since: string): Promise<Set<string>> {
      if (chatIds.length === 0) return new Set();
      // One prepared statement whatever the count (docs/ingest.md "Read-ahead").
      const { rows } = await prepared<{ chat_id: string }>(trx, 'campaigns.chatsWithTargets', [tenantId, channelId, listArg(trx, chatIds), since], (k, [t, c, ids, from]) =>
        whereOneOf(replyCandidates(k, t!, c!, from!), k, 'chat_id', ids!).distinct('chat_id'));
      return new Set(rows.map((r) => String(r.chat_id)));
    },

    /** A reply (interacted) or a button click (clicked); the first answer is kept. */
    async markInteracted(trx: Knex.Transaction, tenantId: string, target: { campaignId: string; row: number }, answer: string, clicked: boolean, now: string): Promise<void> {
      await trx('campaign_messages').where({ tenant_id: tenantId, campaign_id: target.campaignId, row_no: target.row }).update({
        interacted: true, ...(clicked && { clicked: true }), answer: trx.raw('coalesce(answer, ?)', [answer.slice(0, 4000)]), updated_at: now,
      });
    },

    // ---- what the upload checks ------------------------------------------------------------

    /** Of these phones, the ones whose contact is blocked (blockedSending, blockedReceiving or autoBlocked). */
    async blockedPhones(tenantId: string, phones: string[]): Promise<Set<string>> {
      const out = new Set<string>();
      for (let i = 0; i < phones.length; i += 500) {
        const rows = await db('contacts').where({ tenant_id: tenantId }).whereNull('deleted_at').whereIn('phone', phones.slice(i, i + 500)).select('phone', 'data');
        for (const row of rows) {
          const data = parseJson<Record<string, unknown>>(row.data, {});
          if (data.blockedSending || data.blockedReceiving || data.autoBlocked) out.add(String(row.phone));
        }
      }
      return out;
    },

    async approvedTemplate(tenantId: string, channelId: string, name: string, language: string): Promise<{ components: unknown[] } | null> {
      const row = await db('whatsapp_templates').where({ tenant_id: tenantId, channel_id: channelId, name, language }).first('status', 'components');
      if (!row || String(row.status).toUpperCase() !== 'APPROVED') return null;
      return { components: parseJson<unknown[]>(row.components, []) };
    },

    /** The tenant's active tag with this name (a campaign's tag is typed by name). */
    async tagByName(q: Conn, tenantId: string, name: string): Promise<{ id: string; name: string } | null> {
      const row = await q('tags').where({ tenant_id: tenantId, name }).whereNull('deleted_at').first('id', 'name');
      return row ? { id: String(row.id), name: String(row.name) } : null;
    },

    /** Active channels with approved pt templates, and those templates (the upload form's choices). */
    /** An active flow of the Fluxos register by id or, as older API clients send it, by name. */
    async flow(tenantId: string, idOrName: string, q: Db | Knex.Transaction = db): Promise<{ id: string; name: string } | null> {
      const row = await q('documents').where({ tenant_id: tenantId, collection: 'flows', active: true }).whereNull('deleted_at')
        .andWhere((w) => w.where('id', idOrName).orWhere('title', idOrName)).orderByRaw('CASE WHEN id = ? THEN 0 ELSE 1 END', [idOrName]).first('id', 'title');
      return row ? { id: String(row.id), name: String(row.title ?? row.id) } : null;
    },

    async uploadOptions(tenantId: string): Promise<{ channels: { id: string; displayName: string }[]; templates: { channelId: string; name: string; language: string; components: unknown[] }[]; flows: { id: string; name: string }[] }> {
      const templates = await db('whatsapp_templates as t')
        .join('channels as c', function on() {
          this.on('c.tenant_id', '=', 't.tenant_id').andOn('c.id', '=', 't.channel_id');
        })
        .where('t.tenant_id', tenantId).andWhere('t.status', 'APPROVED').whereIn('t.language', ['pt_BR', 'pt_PT']).andWhere('c.active', true).whereNull('c.deleted_at')
        .orderBy([{ column: 'c.display_name' }, { column: 't.name' }]).limit(2000)
        .select('t.channel_id', 't.name', 't.language', 't.components', 'c.display_name');
      const channels = new Map<string, string>();
      for (const r of templates) channels.set(String(r.channel_id), String(r.display_name));
      const flows = await db('documents').where({ tenant_id: tenantId, collection: 'flows', active: true }).whereNull('deleted_at').orderBy('title').limit(500).select('id', 'title');
      return {
        flows: flows.map((r) => ({ id: String(r.id), name: String(r.title ?? r.id) })),
        channels: [...channels].map(([id, displayName]) => ({ id, displayName })),
        templates: templates.map((r) => ({ channelId: String(r.channel_id), name: String(r.name), language: String(r.language), components: parseJson<unknown[]>(r.components, []) })),
      };
    },

    async timeZone(tenantId: string): Promise<string | null> {
      const row = await db('tenants').where({ id: tenantId }).first('app_config');
      const zone = parseJson<{ timeZone?: unknown }>(row?.app_config, {}).timeZone;
      return typeof zone === 'string' && zone ? zone : null;
    },

    /** The template (with components) and channel type a campaign sends with. */
    async templateOf(tenantId: string, channelId: string, name: string, language: string): Promise<unknown[] | null> {
      const row = await db('whatsapp_templates').where({ tenant_id: tenantId, channel_id: channelId, name, language }).first('components');
      return row ? parseJson<unknown[]>(row.components, []) : null;
    },
  };
}

export type CampaignRepository = ReturnType<typeof createCampaignRepository>;
