import { createHmac, timingSafeEqual } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { messages } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import { createLgpdRepository, type AuditEntry } from '../../db/repositories/lgpd-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { BlobStore } from '../files/blob-store';
import { AppError, badRequest, notFound } from '../../errors';

const FILE_URL = /^\/api\/files\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_.-]{1,80})$/;
const DAY_MS = 86_400_000;
/** How long the first confirmation of an erase stays valid. */
const CONFIRM_TTL_MS = 10 * 60_000;

export interface LgpdDeps {
  db: Db;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  blobs: BlobStore;
  /** Signs erase confirmations, so the second step may reach another process (config.jwtSecret). */
  secret: string;
}

/**
 * LGPD data rights (docs/lgpd.md): an admin exports everything the tenant holds about a
 * contact as one zip, or erases the contact (two confirmations, irreversible, audited);
 * the clock applies each tenant's retention to closed chats (media first when configured).
 */
export function createLgpd(deps: LgpdDeps) {
  const { changes, clock, logger, blobs } = deps;
  const repo = createLgpdRepository(deps.db);

  /** Deletes the local files of a tenant among `urls` (after the commit that stopped pointing at them). */
  async function deleteFiles(tenantId: string, urls: string[]): Promise<number> {
    let deleted = 0;
    for (const url of new Set(urls)) {
      const match = FILE_URL.exec(url);
      if (match && match[1] === tenantId && (await blobs.remove(tenantId, match[2]!))) deleted++;
    }
    return deleted;
  }

  function sign(payload: string): string {
    return createHmac('sha256', deps.secret).update(`lgpd-erase:${payload}`).digest('base64url');
  }

  function confirmationToken(tenantId: string, contactId: string, userId: string, expiresAt: number): string {
    const payload = Buffer.from(JSON.stringify({ t: tenantId, c: contactId, u: userId, e: expiresAt })).toString('base64url');
    return `${payload}.${sign(payload)}`;
  }

  function checkConfirmation(token: unknown, tenantId: string, contactId: string, userId: string): boolean {
    if (typeof token !== 'string' || token.length > 1000) return false;
    const [payload, mac] = token.split('.');
    if (!payload || !mac) return false;
    const expected = Buffer.from(sign(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    try {
      const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { t: string; c: string; u: string; e: number };
      return data.t === tenantId && data.c === contactId && data.u === userId && data.e > clock.now().getTime();
    } catch {
      return false;
    }
  }

  async function anonymise(tenantId: string, roomIds: string[], extra: (trx: Parameters<Parameters<ChangeFeed['transaction']>[1]>[0]) => Promise<void>) {
    const at = clock.now().toISOString();
    const outcome = await changes.transaction(tenantId, async (trx, record) => {
      const result = await repo.anonymiseRooms(trx, tenantId, roomIds, at);
      await extra(trx);
      for (const id of roomIds) record({ collection: 'rooms', id, op: 'upsert' });
      for (const id of result.messageIds) record({ collection: 'messages', id, op: 'upsert' });
      return result;
    });
    return { ...outcome, filesDeleted: await deleteFiles(tenantId, outcome.files) };
  }

  return {
    repo,

    /**
     * One zip with everything about the contact: contact.json (the register record, its
     * integration links included), identities.json, chats.json, messages.json, surveys.json and
     * files/ (the files of its messages). Audited.
     */
    async exportContact(tenantId: string, contactId: string, userId: string): Promise<{ fileName: string; stream: Readable }> {
      const contact = await repo.contact(tenantId, contactId);
      if (!contact) throw notFound('contact_not_found', messages.lgpd.contactNotFound);
      const { rooms, messages: msgs } = await repo.chatsOf(tenantId, contactId);
      const surveys = [
        ...rooms.filter((r) => r.npsValue !== null || r.csatValue !== null).map((r) => ({ roomId: r.id, nps: r.npsValue, csat: r.csatValue })),
        ...msgs.filter((m) => m.nps || m.csat).map((m) => ({ roomId: m.roomId, messageId: m.id, nps: m.nps ?? null, csat: m.csat ?? null })),
      ];
      const archive = new ZipArchive({ zlib: { level: 6 } });
      const out = new PassThrough();
      archive.on('error', (err) => out.destroy(err));
      archive.on('warning', (err) => logger.warn({ err, tenantId, contactId }, 'lgpd.export_warning'));
      archive.pipe(out);
      const json = (value: unknown) => JSON.stringify(value, null, 2);
      archive.append(json({ exportedAt: clock.now().toISOString(), tenantId, contactId, files: ['contact.json', 'identities.json', 'chats.json', 'messages.json', 'surveys.json', 'files/'] }), { name: 'LEIA-ME.json' });
      archive.append(json(contact.record), { name: 'contact.json' });
      archive.append(json(contact.identities), { name: 'identities.json' });
      archive.append(json(rooms), { name: 'chats.json' });
      archive.append(json(msgs), { name: 'messages.json' });
      archive.append(json(surveys), { name: 'surveys.json' });
      for (const m of msgs) {
        for (const key of ['image', 'audio', 'video', 'document'] as const) {
          const media = m[key] as Record<string, unknown> | undefined;
          const url = media && (media[`${key}Url`] as string | undefined);
          const match = url ? FILE_URL.exec(url) : null;
          if (!match || match[1] !== tenantId) continue;
          const file = await blobs.open(tenantId, match[2]!);
          if (file) archive.append(file.stream(), { name: `files/${match[2]}` });
        }
      }
      void archive.finalize();
      await repo.audit(deps.db, tenantId, { action: 'export', contactId, userId, details: { chats: rooms.length, messages: msgs.length }, createdAt: clock.now().toISOString() });
      return { fileName: `contato-${contactId}.zip`, stream: out };
    },

    /**
     * Erase, step one: what would be erased and a signed confirmation code valid 10 minutes.
     * Step two (`erase`) needs that code and the typed word APAGAR: confirmed twice.
     */
    async requestErase(tenantId: string, contactId: string, userId: string) {
      const contact = await repo.contact(tenantId, contactId);
      if (!contact) throw notFound('contact_not_found', messages.lgpd.contactNotFound);
      const { rooms, messages: msgs } = await repo.chatsOf(tenantId, contactId);
      const expiresAt = clock.now().getTime() + CONFIRM_TTL_MS;
      return {
        contact: { id: contactId, displayName: (contact.record.displayName as string | undefined) ?? null },
        chats: rooms.length,
        messages: msgs.length,
        confirmationToken: confirmationToken(tenantId, contactId, userId, expiresAt),
        confirmText: messages.lgpd.eraseConfirmText,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },

    /** Erase, step two: anonymises every chat of the contact, deletes its files and its record; audited. */
    async erase(tenantId: string, contactId: string, userId: string, input: { confirmationToken?: unknown; confirmation?: unknown }): Promise<AuditEntry> {
      if (input.confirmation !== messages.lgpd.eraseConfirmText) throw badRequest('erase_not_confirmed', messages.lgpd.eraseConfirmRequired);
      if (!checkConfirmation(input.confirmationToken, tenantId, contactId, userId)) throw new AppError(400, 'erase_confirmation_invalid', messages.lgpd.eraseConfirmInvalid);
      const contact = await repo.contact(tenantId, contactId);
      if (!contact) throw notFound('contact_not_found', messages.lgpd.contactNotFound);
      const roomIds = await repo.roomIdsOfContact(deps.db, tenantId, contactId);
      const at = clock.now().toISOString();
      const result = await anonymise(tenantId, roomIds, async (trx) => {
        await repo.eraseContact(trx, tenantId, contactId, at);
      });
      await changes.transaction(tenantId, async (_trx, record) => record({ collection: 'contacts', id: contactId, op: 'delete' }));
      // Who, when, which contact: the id only (the name is what was erased).
      return repo.audit(deps.db, tenantId, { action: 'erase', contactId, userId, details: { chats: roomIds.length, messages: result.messageIds.length, files: result.filesDeleted }, createdAt: at });
    },

    audit: (tenantId: string) => repo.auditList(tenantId),

    /**
     * The retention clock: per tenant with a retention, files of chats closed more than
     * `mediaDays` ago go first, then chats closed more than `closedChatsDays` ago are
     * anonymised. Rooms keep their statistics columns, so the dashboard still counts them.
     */
    async runRetention(): Promise<{ tenantId: string; mediaRooms: number; anonymisedRooms: number; files: number }[]> {
      const report = [];
      for (const { tenantId, retention } of await repo.tenantsWithRetention()) {
        const now = clock.now().getTime();
        let mediaRooms = 0;
        let anonymisedRooms = 0;
        let files = 0;
        if (retention.mediaDays && retention.mediaDays > 0) {
          const before = new Date(now - retention.mediaDays * DAY_MS).toISOString();
          for (let ids = await repo.closedBefore(tenantId, before, 200, 'media'); ids.length; ids = await repo.closedBefore(tenantId, before, 200, 'media')) {
            const at = clock.now().toISOString();
            const result = await changes.transaction(tenantId, async (trx, record) => {
              const r = await repo.removeMedia(trx, tenantId, ids, at);
              for (const id of r.messageIds) record({ collection: 'messages', id, op: 'upsert' });
              return r;
            });
            files += await deleteFiles(tenantId, result.files);
            mediaRooms += ids.length;
          }
        }
        if (retention.closedChatsDays && retention.closedChatsDays > 0) {
          const before = new Date(now - retention.closedChatsDays * DAY_MS).toISOString();
          for (let ids = await repo.closedBefore(tenantId, before, 200, 'anonymise'); ids.length; ids = await repo.closedBefore(tenantId, before, 200, 'anonymise')) {
            const result = await anonymise(tenantId, ids, async () => {});
            files += result.filesDeleted;
            anonymisedRooms += ids.length;
          }
        }
        if (mediaRooms || anonymisedRooms) {
          await repo.audit(deps.db, tenantId, { action: 'retention', contactId: null, userId: null, details: { mediaRooms, anonymisedRooms, files, retention }, createdAt: clock.now().toISOString() });
          logger.info({ tenantId, mediaRooms, anonymisedRooms, files }, 'lgpd.retention_applied');
        }
        report.push({ tenantId, mediaRooms, anonymisedRooms, files });
      }
      return report;
    },

    /** Runs the retention every `everyMs` (default hourly) until the returned stop. */
    startRetention(everyMs = 3_600_000): () => void {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        void this.runRetention()
          .catch((err) => logger.error({ err }, 'lgpd.retention_failed'))
          .finally(() => (running = false));
      }, everyMs);
      timer.unref?.();
      return () => clearInterval(timer);
    },
  };
}

export type Lgpd = ReturnType<typeof createLgpd>;
