import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDay, messages as texts, validateClose, type AppConfig } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat-helpers';

/**
 * The closure rules are written once (schemas' validateClose) and run by the dialog and the
 * server alike: a configuration the dialog accepts is one the server accepts.
 */
let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

async function closeWith(config: Partial<AppConfig>, closedBy: { justify: string | null; obs: string | null }, nextContact?: string) {
  await t.patchAppConfig(config);
  const visitor = await visitorStarts(t, 'site-vendas', 'Preciso de ajuda');
  await push(t, t.tokens.agente, visitor.roomId!);
  return t.api(`/api/rooms/${visitor.roomId}/close`, { method: 'PATCH', body: { closedBy, ...(nextContact ? { nextContact } : {}) }, token: t.tokens.agente });
}

describe('closing rules: the dialog and the server agree', () => {
  it('with reportOnly false and no justification listed, a close without justification is accepted (the dialog has nothing to choose)', async () => {
    const config = { claims: {}, closeJustify: { justifies: [], obsRules: [], reportOnly: false, nextMaxDate: 5000 } };
    expect(validateClose(config, { justify: null, obs: null }, '2026-11-24')).toBeNull();
    const res = await closeWith(config, { justify: null, obs: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ active: false, closedBy: { justify: null } });
  });

  it('with justifications listed, one of them is required, in the dialog and on the server', async () => {
    const config = { claims: {}, closeJustify: { justifies: ['Resolvido'], obsRules: [], reportOnly: false, nextMaxDate: 5000 } };
    expect(validateClose(config, { justify: null, obs: null }, '2026-11-24')?.message).toBe(texts.chat.chooseCloseJustify);
    const missing = await closeWith(config, { justify: null, obs: null });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toBe(texts.chat.chooseCloseJustify);
    const unknown = await closeWith(config, { justify: 'Outra coisa', obs: null });
    expect(unknown.status).toBe(400);
  });

  it('an observation rule refuses with its own message', async () => {
    const config = { closeJustify: { justifies: [], obsRules: [{ pattern: '\\S{5,}', message: 'Descreva o atendimento.' }], reportOnly: true, nextMaxDate: 5000 } };
    const res = await closeWith(config, { justify: null, obs: 'ok' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'closedBy.obs', message: 'Descreva o atendimento.' }]);
    expect((await closeWith(config, { justify: null, obs: 'cliente atendido' })).status).toBe(200);
  });

  it("'today' is the tenant's calendar day: 23:30 in São Paulo is already tomorrow in UTC", () => {
    const lateEvening = new Date('2026-11-24T23:30:00-03:00');
    expect(calendarDay(lateEvening, 'America/Sao_Paulo')).toBe('2026-11-24');
    expect(calendarDay(lateEvening, 'UTC')).toBe('2026-11-25');
    const config = { claims: { hasNextContact: true }, closeJustify: { justifies: [], obsRules: [], reportOnly: true, nextMaxDate: 2 } };
    const check = (date: string) => validateClose(config, { justify: null, obs: null, nextContact: date }, calendarDay(lateEvening, 'America/Sao_Paulo'));
    expect(check('24/11/2026')).toBeNull();
    expect(check('26/11/2026')).toBeNull();
    expect(check('27/11/2026')?.field).toBe('nextContact');
    expect(check('23/11/2026')?.field).toBe('nextContact');
    expect(check('31/11/2026')?.field).toBe('nextContact');
  });
});
