import type { Transaction } from '../../../db/knex';
import { messages, type ContingencyRecord } from '@atendimento/schemas';
import { validationError } from '../../../errors';
import type { RegisterHooks } from '../register-hooks';

/** ISO instant of a local date and HH:MM at a UTC offset in hours (seed: timezoneOffset). */
function instantOf(date: string, hour: string, offsetHours: number): string {
  const [h, m] = hour.split(':').map(Number);
  const utc = Date.parse(`${date}T00:00:00Z`) + ((h ?? 0) * 60 + (m ?? 0) - offsetHours * 60) * 60_000;
  return new Date(utc).toISOString();
}

/** Puts (or takes off) a contingency's end on routing's clock, in the saving transaction. */
export type ContingencyScheduler = (trx: Transaction, tenantId: string, contingency: ContingencyRecord) => Promise<void>;

/**
 * Contingencies: startDate + startHour and endDate + endHour, at the record's UTC offset,
 * become the instants startTime and endTime the chat server compares with (seed 000 §5);
 * routing marks the contingency finished when its window ends (docs/routing.md).
 */
export function contingenciesHooks(deps: { scheduleEnd?: ContingencyScheduler } = {}): RegisterHooks {
  return {
    async afterWrite(ctx, next) {
      await deps.scheduleEnd?.(ctx.trx, ctx.tenant.id, next as unknown as ContingencyRecord);
    },
    async afterDelete(ctx, deleted) {
      for (const record of deleted) await deps.scheduleEnd?.(ctx.trx, ctx.tenant.id, { ...(record as unknown as ContingencyRecord), active: false });
    },
    async beforeWrite(_ctx, next) {
      const offset = typeof next.timezoneOffset === 'number' ? next.timezoneOffset : -3;
      const start = instantOf(String(next.startDate), String(next.startHour), offset);
      const end = instantOf(String(next.endDate), String(next.endHour), offset);
      if (end <= start) throw validationError([{ field: 'endDate', message: messages.validation.invalidValue }]);
      next.startTime = start;
      next.endTime = end;
    },
  };
}
