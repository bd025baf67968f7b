import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoutingServer, stopRoutingServer, tokenOf, type RoutingTest } from '../routing/routing-helpers';
import { visitorStarts, visitorWrites } from '../chat/chat-helpers';

/**
 * Survey counters of the daily reports (docs/reports.md) fed by the real survey flow
 * (docs/console-operations.md "Surveys"): agents close with 'Encerrar com pesquisa NPS/CSAT',
 * web-chat visitors answer (or not), and the day's npsRequested / npsAnswered / csatRequested /
 * csatAnswered count them; a rebuild from the raw rooms gives the same numbers. Known answers:
 *
 * | local time (02/02) | what happens |
 * | 12:00 | A on site-suporte: suporte closes with CSAT, the visitor answers "4 - bom" |
 * | 12:10 | B on site-suporte: suporte closes with CSAT, the visitor never answers |
 * | 12:20 | C on site-vendas: agente closes with NPS, the visitor answers "10" |
 */
let t: RoutingTest;
const DAY = '2026-02-02';
const START = new Date(`${DAY}T15:00:00.000Z`); // 12:00 in São Paulo

async function chatClosedWithSurvey(channel: string, userId: string, method: 'nps' | 'csat', name: string) {
  const session = await visitorStarts(t, channel, 'Olá, preciso de ajuda', name);
  const token = tokenOf(t, userId);
  expect((await t.api(`/api/rooms/${session.roomId}/push`, { method: 'PATCH', body: {}, token })).status).toBe(200);
  expect((await t.api(`/api/rooms/${session.roomId}/message`, { method: 'POST', body: { text: 'Resolvido!' }, token })).status).toBe(201);
  t.clock.advance(5 * 60_000);
  const closed = await t.api(`/api/rooms/${session.roomId}/askresearch`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' }, researchMethod: method }, token });
  expect(closed.status, closed.text).toBe(200);
  return session;
}

beforeAll(async () => {
  t = await startRoutingServer(START);
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, askResearch: true, askResearchCsat: true } });
  const a = await chatClosedWithSurvey('site-suporte', 'acme-suporte', 'csat', 'Cliente A');
  expect((await visitorWrites(t, a, '4 - bom')).status).toBe(201);
  t.clock.advance(5 * 60_000);
  await chatClosedWithSurvey('site-suporte', 'acme-suporte', 'csat', 'Cliente B');
  t.clock.advance(5 * 60_000);
  const c = await chatClosedWithSurvey('site-vendas', 'acme-agente', 'nps', 'Cliente C');
  expect((await visitorWrites(t, c, '10')).status).toBe(201);
  await t.server.services.changes.idle();
}, 60_000);
afterAll(() => stopRoutingServer(t));

describe('survey counters of the daily reports', () => {
  it('count requested and answered NPS and CSAT per agent from the survey flow, and the rebuild agrees', async () => {
    const day = async () => {
      const res = await t.api(`/api/dashboard/reports?from=${DAY}&to=${DAY}`, { token: t.tokens.admin });
      expect(res.status, res.text).toBe(200);
      return res.body.data.days[0];
    };
    const d = await day();
    expect(d.csatRequested.csatAgents).toEqual([{ agent: 'acme-suporte', totalCount: 2 }]);
    expect(d.csatAnswered.csatAgents).toEqual([{ agent: 'acme-suporte', avg: 4, totalCount: 1, total: 4, values: { '4': 1 }, roomsValue: { '4': 1 } }]);
    expect(d.npsRequested.npsAgents).toEqual([{ agent: 'acme-agente', totalCount: 1 }]);
    expect(d.npsAnswered.npsAgents).toEqual([{ agent: 'acme-agente', avg: 10, totalCount: 1, total: 10, values: { '10': 1 } }]);

    const reports = t.server.services.reports;
    const before = await reports.counters('acme', DAY, DAY);
    await t.server.db('report_daily').where({ tenant_id: 'acme' }).del();
    await t.server.db('report_room_facts').where({ tenant_id: 'acme' }).del();
    await reports.rebuild('acme', DAY, DAY);
    expect(await reports.counters('acme', DAY, DAY)).toEqual(before);
    expect(await day()).toEqual(d);
  });
});
