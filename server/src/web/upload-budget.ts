import { messages } from '@atendimento/schemas';
import { AppError } from '../errors';
import type { AppContext } from './access';

/**
 * Bytes of uploads in flight in this process, for every route that takes a file (chat files,
 * `/api/upload`, register imports, campaign files, mail attachments): past the budget a new
 * upload is refused with 503 until others finish (docs/security.md "Limits"). One client
 * address holds at most its share, so one visitor cannot take the whole budget from the rest.
 */
export interface UploadBudget {
  /**
   * Counts `bytes` (the declared length, or the route's ceiling when none is declared) for
   * `address` until the answer to `ctx` goes out; throws the 503 when they do not fit.
   */
  hold(ctx: AppContext, bytes: number): void;
  stats(): { bytes: number; addresses: number };
}

export interface UploadBudgetLimits {
  /** Bytes in flight in the process (UPLOADS_IN_FLIGHT_MAX_BYTES). */
  maxBytes: number;
  /** Bytes in flight from one client address (UPLOADS_IN_FLIGHT_MAX_PER_IP_BYTES; 0 = no share). */
  maxPerAddressBytes: number;
}

const busy = () => new AppError(503, 'uploads_busy', messages.errors.uploadsBusy, { headers: { 'Retry-After': '5', Connection: 'close' } });

/**
 * An upload is refused when it would take a total past its limit, unless nothing is held
 * there yet: a limit set below the largest upload would otherwise refuse that upload forever.
 */
const exceeds = (held: number, bytes: number, max: number) => max > 0 && held > 0 && held + bytes > max;

export function createUploadBudget(limits: UploadBudgetLimits): UploadBudget {
  let total = 0;
  const perAddress = new Map<string, number>();

  return {
    hold(ctx, bytes) {
      // ctx.ip is the forwarded client behind a trusted proxy (TRUST_PROXY), so the share still applies there.
      const address = ctx.ip || 'unknown';
      const mine = perAddress.get(address) ?? 0;
      if (exceeds(total, bytes, limits.maxBytes) || exceeds(mine, bytes, limits.maxPerAddressBytes)) throw busy();
      total += bytes;
      perAddress.set(address, mine + bytes);
      // Held until the answer is sent or the client goes away, not just while the body is read:
      // imports and campaign files are parsed from memory after the upload ends.
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        total -= bytes;
        const left = (perAddress.get(address) ?? bytes) - bytes;
        if (left <= 0) perAddress.delete(address);
        else perAddress.set(address, left);
      };
      ctx.res.once('finish', release);
      ctx.res.once('close', release);
    },
    stats: () => ({ bytes: total, addresses: perAddress.size }),
  };
}
