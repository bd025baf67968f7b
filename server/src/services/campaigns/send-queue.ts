import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ProviderError, cloudApiErrorTitle } from '@atendimento/integrations';
import { DEFAULT_TIME_ZONE } from '@atendimento/schemas';
import { campaignWindowOpen, campaignWindowOver, templateHeaderMedia, type CampaignMessageError } from '@atendimento/schemas/campaigns';
import type { Clock } from '../../clock';
import type { CampaignRepository, CampaignRow, QueueJob } from '../../db/repositories/campaign-repository';
import type { Logger } from '../../logger';
import type { ProviderChannels } from '../whatsapp/provider-channels';

/** Tries of one batch of answers' write (real-time back-off 50 ms … 2 s, ~5 s in all). */
const ANSWER_WRITE_ATTEMPTS = 8;

/** Errors that mean "slow down" (the provider's rate limits), never a failed message. */
const THROTTLE_CODES = new Set(['130429', '131056', '80007', '4']);

export interface SendQueueOptions {
  /** Default messages per second per channel (Meta Cloud API: 80 per number); a channel's `data.provider.messagesPerSecond` wins. */
  ratePerSecond: number;
  /** How long a job may stay 'sending' without an answer or receipt before it is sent again (docs/campaigns.md). */
  leaseMs: number;
  /** First pause of a throttled channel; doubles while the provider keeps refusing, up to `throttleMaxMs`. */
  throttleBaseMs: number;
  throttleMaxMs: number;
  /** Transient failures (5xx) of one job before it counts as an error. */
  maxAttempts: number;
  /** Real-time period of lease renewal while a batch runs; default a quarter of the lease (tests stretch it to play a starved process). */
  renewEveryMs?: number;
  /** Sends in flight at once per process. */
  concurrency: number;
  /** Waits `ms` of the clock (tests pass one that moves a ManualClock). */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_QUEUE_OPTIONS: SendQueueOptions = {
  ratePerSecond: 80, leaseMs: 60_000, throttleBaseMs: 1_000, throttleMaxMs: 60_000, maxAttempts: 8, concurrency: 64,
};

interface QueueDeps {
  repo: CampaignRepository;
  providers: ProviderChannels;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** A campaign's counters or state changed (the live event is debounced by the caller). */
  touched(tenantId: string, campaignId: string): void;
}

/**
 * The campaign send queue (docs/campaigns.md "Sending"). Each campaign message row is a job
 * keyed (campaign, row). A pass: jobs left 'sending' past the lease go back to the queue; then
 * for each running campaign inside its window, one batch is claimed (queued → sending,
 * committed; PostgreSQL SKIP LOCKED), slots are reserved on the channel's pacing row (shared by
 * every process), and each job is sent at its slot with the job key as callback data. The
 * answer's message id is written together with `done`. Throttling pauses the channel with
 * back-off and puts the jobs back without counting them; client errors fail the job; an
 * unknown outcome (no answer) leaves it 'sending' for the lease, so a receipt carrying its key
 * can settle it first. The paused flag is re-read every 200 ms while a batch goes out.
 */
export function createSendQueue(deps: QueueDeps, options: Partial<SendQueueOptions> = {}) {
  const o: SendQueueOptions = { ...DEFAULT_QUEUE_OPTIONS, ...options };
  const { repo, providers, clock, logger } = deps;
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const zones = new Map<string, { zone: string; at: number }>();
  let running: Promise<number> | null = null;
  // Answers are written behind in small transactions (one per ~200 answers or 20 ms): a crash
  // before the write leaves those jobs 'sending', and their receipts (or the lease) settle them.
  let answers: { tenantId: string; id: string; providerId: string; sentAt: string }[] = [];
  let answerTimer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  // A failed write is tried again (a deadlock victim, a dropped connection): an answer dropped
  // here leaves a sent job 'sending', and without a receipt the lease sends it a second time.
  // The batch waits for these writes before its renewals stop, so the claims stay held meanwhile.
  async function writeAnswers(batch: typeof answers): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await repo.acceptedMany(batch, clock.now().toISOString());
      } catch (err) {
        if (attempt >= ANSWER_WRITE_ATTEMPTS) return logger.error({ err, answers: batch.length, attempts: attempt }, 'campaigns.answers_write_failed');
        logger.warn({ err, answers: batch.length, attempt }, 'campaigns.answers_write_retry');
        await new Promise((r) => setTimeout(r, Math.min(2_000, 25 * 2 ** attempt)));
      }
    }
  }
  function flushAnswers(): Promise<void> {
    if (answerTimer) clearTimeout(answerTimer);
    answerTimer = null;
    const batch = answers;
    answers = [];
    if (batch.length) writing = writing.then(() => writeAnswers(batch));
    return writing;
  }
  function answered(item: { tenantId: string; id: string; providerId: string; sentAt: string }): void {
    answers.push(item);
    if (answers.length >= 200) void flushAnswers();
    else if (!answerTimer) answerTimer = setTimeout(() => void flushAnswers(), 20);
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = true;

  async function zoneOf(tenantId: string): Promise<string> {
    const cached = zones.get(tenantId);
    if (cached && cached.at > Date.now() - 60_000) return cached.zone;
    const zone = (await repo.timeZone(tenantId)) || DEFAULT_TIME_ZONE;
    zones.set(tenantId, { zone, at: Date.now() });
    return zone;
  }

  const errorsOf = (error: unknown): CampaignMessageError[] => {
    if (error instanceof ProviderError) return [{ title: error.title, titleptBR: error.titlePtBR || cloudApiErrorTitle(error.code), code: error.code }];
    return [{ title: error instanceof Error ? error.message : String(error), titleptBR: 'Erro no Envio' }];
  };

  /** One batch of one campaign; answers how many jobs were settled (sent, failed or put back). */
  async function runBatch(campaign: CampaignRow): Promise<number> {
    const tenantId = campaign.tenantId;
    const found = await providers.find(tenantId, campaign.channelId);
    if (!found) return 0; // channel switched off or unconfigured: the jobs wait, nothing fails
    const rate = Number((found.config as { messagesPerSecond?: unknown }).messagesPerSecond) || o.ratePerSecond;
    const interval = 1000 / rate;
    const components = await repo.templateOf(tenantId, campaign.channelId, campaign.template.name, campaign.template.language);
    if (!components) return 0;
    const media = templateHeaderMedia(components);
    // About half a second of sends per batch: short enough for pause, long enough to keep the pipe full.
    const size = Math.max(1, Math.min(500, Math.ceil(rate / 2)));
    const now = clock.now().getTime();
    let start = now;
    const jobs = await repo.claimBatch(tenantId, campaign.id, campaign.channelId, new Date(now).toISOString(), size, worker, interval, (at) => (start = at));
    if (jobs.length === 0) {
      if (await repo.finishIfDone(tenantId, campaign.id, clock.now().toISOString())) deps.touched(tenantId, campaign.id);
      return 0;
    }
    const adapter = providers.adapter(found);
    const header = media && campaign.file?.mediaUrl
      ? [{ type: 'header', parameters: [{ type: media, [media]: { link: /^https?:\/\//.test(campaign.file.mediaUrl) ? campaign.file.mediaUrl : `${deps.publicUrl}${campaign.file.mediaUrl}`, ...(media === 'document' && { filename: campaign.file.name }) } }] }]
      : [];
    let stop = null as 'paused' | 'throttled' | 'lease' | null;
    let lastCheck = clock.now().getTime();
    const inFlight = new Set<Promise<void>>();
    const putBack: string[] = [];

    const sendOne = async (job: QueueJob): Promise<void> => {
      const body = job.params.length ? [{ type: 'body', parameters: job.params.map((text) => ({ type: 'text', text })) }] : [];
      // When the request left (its pacing slot), not when the answer came back.
      const sentAt = clock.now().toISOString();
      try {
        const result = await adapter.sendTemplate(job.chatId, { name: campaign.template.name, language: campaign.template.language, components: [...header, ...body], callbackData: `cmp:${job.id}` });
        answered({ tenantId, id: job.id, providerId: result.externalId, sentAt });
      } catch (error) {
        const code = error instanceof ProviderError ? String(error.code) : '';
        if (error instanceof ProviderError && (THROTTLE_CODES.has(code) || error.httpStatus === 429)) {
          stop = 'throttled';
          await repo.throttle(tenantId, campaign.channelId, clock.now().getTime(), o.throttleBaseMs, o.throttleMaxMs);
          await repo.requeue(tenantId, [job.id], worker, clock.now().toISOString(), clock.now().toISOString(), false);
          logger.info({ tenantId, campaignId: campaign.id, code }, 'campaigns.throttled');
        } else if (error instanceof ProviderError && code === 'network') {
          // Unknown outcome: the provider may have it. Left 'sending' until a receipt with its key
          // settles it, or the lease ends and it is sent again (docs/campaigns.md).
          logger.warn({ tenantId, campaignId: campaign.id, jobId: job.id }, 'campaigns.send_outcome_unknown');
        } else if (error instanceof ProviderError && error.retryable && job.attempts < o.maxAttempts) {
          const wait = Math.min(o.throttleMaxMs, o.throttleBaseMs * 2 ** job.attempts);
          await repo.requeue(tenantId, [job.id], worker, new Date(clock.now().getTime() + wait).toISOString(), clock.now().toISOString(), true);
        } else {
          await repo.failed(tenantId, job.id, worker, errorsOf(error), clock.now().toISOString());
        }
      }
    };

    // The lease (docs/campaigns.md "Leases"): while the batch runs, its jobs' claims are renewed
    // every quarter of a lease, and a job goes out only if this worker still held it at a renewal
    // less than half a lease ago. A process that stalled past its lease (a starved box) thus
    // never sends a job another process has meanwhile recovered and sent.
    const ids = jobs.map((j) => j.id);
    let held = new Set(ids);
    let renewedAt = now;
    let renewing: Promise<void> | null = null;
    const renew = (): Promise<void> => (renewing ??= (async () => {
      const at = clock.now().getTime();
      try {
        held = await repo.renewClaims(tenantId, ids, worker, new Date(at).toISOString());
        renewedAt = at;
      } catch (err) {
        logger.warn({ err, tenantId, campaignId: campaign.id }, 'campaigns.lease_renew_failed');
      }
    })().finally(() => (renewing = null)));
    // Real time, for the answers still in flight after the last send left.
    const renewer = setInterval(() => void renew(), Math.max(50, o.renewEveryMs ?? o.leaseMs / 4));
    renewer.unref?.();

    try {
      for (let i = 0; i < jobs.length; i++) {
        const job = jobs[i]!;
        const due = start + i * interval;
        const wait = due - clock.now().getTime();
        if (wait > 0) await sleep(wait);
        if (!stop && clock.now().getTime() - lastCheck >= 200) {
          lastCheck = clock.now().getTime();
          if ((await repo.pausedOf(tenantId, [campaign.id])).has(campaign.id)) stop = 'paused';
        }
        if (!stop && clock.now().getTime() - renewedAt >= o.leaseMs / 4) await renew();
        if (!stop && clock.now().getTime() - renewedAt >= o.leaseMs / 2) stop = 'lease';
        if (stop) {
          putBack.push(...jobs.slice(i).map((j) => j.id));
          break;
        }
        if (!held.has(job.id)) continue; // recovered by another process after our lease ended: theirs now
        const p = sendOne(job).finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (inFlight.size >= o.concurrency) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      await flushAnswers();
    } finally {
      clearInterval(renewer);
      await renewing;
    }
    if (stop === 'lease') logger.warn({ tenantId, campaignId: campaign.id, putBack: putBack.length }, 'campaigns.lease_not_renewed');
    // Not sent: back in the queue as they were (a pause or a throttle is not an attempt).
    await repo.requeue(tenantId, putBack, worker, clock.now().toISOString(), clock.now().toISOString(), false);
    if (stop !== 'throttled') await repo.clearThrottle(tenantId, campaign.channelId, clock.now().getTime());
    deps.touched(tenantId, campaign.id);
    return jobs.length;
  }

  // Receipts of a dead process's sends reach us only once we are up: the lease counts from our
  // start too, so a restart never resends what the provider is about to confirm.
  const startedAt = clock.now().getTime();

  async function pass(): Promise<number> {
    const now = clock.now();
    if (now.getTime() - startedAt >= o.leaseMs) {
      const recovered = await repo.recoverStale(new Date(now.getTime() - o.leaseMs).toISOString(), now.toISOString());
      if (recovered) logger.warn({ recovered }, 'campaigns.lease_expired_requeued');
    }
    let settled = 0;
    const campaigns = await repo.runnable();
    // One batch per channel at a time (the pacing row orders them); channels run side by side.
    const byChannel = new Map<string, CampaignRow[]>();
    for (const c of campaigns) {
      const key = `${c.tenantId}\u0000${c.channelId}`;
      byChannel.set(key, [...(byChannel.get(key) ?? []), c]);
    }
    await Promise.all([...byChannel.values()].map(async (list) => {
      for (const campaign of list) {
        try {
          const zone = await zoneOf(campaign.tenantId);
          const at = clock.now();
          if (campaignWindowOver(campaign, at, zone)) {
            await repo.expire(campaign.tenantId, campaign.id, at.toISOString());
            deps.touched(campaign.tenantId, campaign.id);
            continue;
          }
          if (!campaignWindowOpen(campaign, at, zone)) continue;
          settled += await runBatch(campaign);
        } catch (err) {
          logger.error({ err, tenantId: campaign.tenantId, campaignId: campaign.id }, 'campaigns.batch_failed');
        }
      }
    }));
    return settled;
  }

  /** Runs passes until nothing is left to send now (tests: with a ManualClock and `sleep` moving it). */
  async function tick(): Promise<number> {
    if (running) return running;
    running = pass().finally(() => (running = null));
    return running;
  }

  let pollEvery = 250;
  function loop(delay: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void tick()
        .catch((err) => {
          logger.error({ err }, 'campaigns.pass_failed');
          return 0;
        })
        // Work found: next batch at once (pacing waits inside the batch); idle: poll.
        .then((n) => loop(n ? 0 : pollEvery));
    }, delay);
    timer.unref?.();
  }

  return {
    worker,
    tick,
    start(pollMs = 250): void {
      if (!stopped) return;
      stopped = false;
      pollEvery = pollMs;
      loop(pollMs);
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => 0);
      await flushAnswers();
    },
  };
}

export type SendQueue = ReturnType<typeof createSendQueue>;
