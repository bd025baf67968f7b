import { randomBytes } from 'node:crypto';
import { createServer, loadConfig, ManualClock } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { channelRow, departmentRow } from '../helpers/rows';

export const TENANT = 'r5';
export const RULE_TEXT = 'Lembrete automático R5';

/**
 * Prepares a database with `rooms` open web-chat rooms of tenant r5 whose department has one
 * automatic rule (sendMessage after 1 minute, no repeat): `rooms` pending deadlines, the first
 * due at `dueAt`, the others spread over `spreadMs` (10 chats per step). Built in this process
 * with a manual clock (so nothing fires here), then closed: the server processes under test
 * start on it afterwards.
 */
export async function seedPendingDeadlines(env: Record<string, string>, rooms: number, dueAt: Date, spreadMs = 0): Promise<void> {
  const clock = new ManualClock(new Date(dueAt.getTime() - 60_000));
  const config = loadConfig(
    { ...process.env, ...env, LOG_LEVEL: 'silent', BUS: 'memory', SCHEDULER_POLL_MS: '3600000', ROUTING_SWEEP_SECONDS: '0' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: TENANT, staticDir: null },
  );
  const server = await createServer({ config, clock, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } as never });
  try {
    const iso = clock.now().toISOString();
    await server.repos.tenants.create({ id: TENANT, name: 'R5', active: true, appConfig: defaultAppConfig(TENANT, 'R5') }, ['r5.test'], clock.now());
    const dept = departmentRow(TENANT, { id: 'd', displayName: 'Plantão' }, iso);
    const data = JSON.parse(dept.data);
    await server.db('departments').insert({ ...dept, data: JSON.stringify({ ...data, queueMessages: [{ command: 'sendMessage', arg: RULE_TEXT, timeInMinutes: 1, repeat: false }] }) });
    await server.db('channels').insert(channelRow(TENANT, { id: 'site', type: 'webchat', displayName: 'Site', departmentId: 'd' }, iso));
    server.services.routing.config.invalidate(TENANT);
    const channel = (await server.services.chat.deps.directory.channel(TENANT, 'site'))!;
    const step = 10;
    for (let i = 0; i < rooms; i += step) {
      if (i > 0) clock.advance(Math.floor((spreadMs * step) / rooms));
      const items = Array.from({ length: Math.min(step, rooms - i) }, (_, k) => ({
        externalId: `r5-${i + k}`,
        timestamp: clock.now().toISOString(),
        contact: { phone: null, userId: `visitor-${i + k}`, displayName: `Visitante ${i + k}` },
        content: { type: 'text' as const, text: 'Olá' },
      }));
      await server.services.chat.ingest.ingestInbound(TENANT, channel, items);
    }
    const pending = await server.services.scheduler.deadlines.count(TENANT, 'rule');
    if (pending !== rooms) throw new Error(`seedPendingDeadlines: expected ${rooms} rule deadlines, found ${pending}`);
  } finally {
    await server.close();
  }
}
