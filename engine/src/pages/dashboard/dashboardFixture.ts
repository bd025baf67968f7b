import type { DashboardReport, ReportDay } from '@atendimento/schemas';

/**
 * A week of reports for stories and specs (deterministic): two departments, three agents,
 * two channels, NPS and CSAT answers, tags, transfers, and two bot flows with their results
 * ('Triagem inicial' with an expected result, 'Segunda via de boleto' without).
 */
export function fixtureReport(from = '2026-01-01', days = 7, scope: 'admin' | 'supervisor' = 'admin'): DashboardReport {
  const list: ReportDay[] = [];
  for (let i = 0; i < days; i++) {
    const date = new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
    const vendas = 10 + ((i * 7) % 5);
    const suporte = scope === 'admin' ? 6 + ((i * 3) % 4) : 0;
    const agents = [
      { agent: 'ana', count: Math.ceil(vendas / 2), countContacts: Math.ceil(vendas / 2) },
      { agent: 'bia', count: Math.floor(vendas / 2), countContacts: Math.floor(vendas / 2) },
      ...(scope === 'admin' ? [{ agent: 'caio', count: suporte, countContacts: suporte }] : []),
    ];
    // Flow runs: triage asks the reason and whether it was solved; the invoice flow only the latter.
    const triagem = { started: 8 + (i % 3), completed: 6 + (i % 3) - (i % 2) };
    const boleto = { started: 3 + (i % 2), completed: 3 };
    const motivo = [Math.ceil(triagem.completed / 2), Math.floor(triagem.completed / 3), triagem.completed - Math.ceil(triagem.completed / 2) - Math.floor(triagem.completed / 3)];
    list.push({
      date,
      dateRef: date,
      roomDate: {
        countRooms: vendas + suporte,
        countContacts: vendas + suporte - 1,
        agentsRooms: agents,
        departmentRooms: [{ departament: 'deptovendas', departmentId: 'vendas', count: vendas }, ...(scope === 'admin' ? [{ departament: 'deptosuporte', departmentId: 'suporte', count: suporte }] : [])],
        channelRooms: [
          { channelId: 'wa', label: 'WhatsApp', countRooms: vendas, countContacts: vendas },
          { channelId: 'site', label: 'Chat do site', countRooms: suporte, countContacts: suporte },
        ],
      },
      firstAttend: {
        agents: agents.map((a, k) => ({ agent: a.agent, avgTime: 60 + k * 30 + i * 5, count: a.count, totalMs: a.count * (60 + k * 30 + i * 5) * 1000 })),
        departaments: [{ departament: 'vendas', avgTime: 75, count: vendas, totalMs: vendas * 75_000 }],
      },
      userStatus: { agents: agents.map((a, k) => ({ agent: a.agent, totalHours: 6 + k, totalMs: (6 + k) * 3_600_000 })) },
      npsAnswered: { npsAgents: [{ agent: 'ana', avg: 8.5, totalCount: 4, total: 34, values: { '10': 2, '8': 1, '6': 1 } }] },
      npsRequested: { npsAgents: [{ agent: 'ana', totalCount: 6 }] },
      csatAnswered: { csatAgents: [{ agent: 'bia', avg: 4, totalCount: 3, total: 12, values: { '5': 1, '4': 1, '3': 1 }, roomsValue: { '5': 1, '4': 1, '3': 1 } }] },
      csatRequested: { csatAgents: [{ agent: 'bia', totalCount: 4 }] },
      tagsReport: {
        tags: [
          { id: 'venda', name: 'Venda', color: '#01b882', count: 3 + (i % 2), departments: [{ departament: 'vendas', count: 3 + (i % 2) }] },
          { id: 'duvida', name: 'Dúvida', color: '#f2b000', count: 2, departments: [{ departament: 'vendas', count: 2 }] },
        ],
      },
      agentTMA: { tma: agents.map((a, k) => ({ agentId: a.agent, avg: 600 + k * 120, count: a.count, totalMs: a.count * (600 + k * 120) * 1000 })) },
      departmentTMA: { tma: [{ departmentId: 'vendas', avg: 660, count: vendas, totalMs: vendas * 660_000 }] },
      roomsHoursHeatmap: { hoursHitmap: Array.from({ length: 24 }, (_, h) => ({ hour: h, label: `${h}h-${h + 1}h`, count: h >= 8 && h <= 18 ? 1 + ((h + i) % 3) : 0 })) },
      transfers: { count: i % 3, departments: i % 3 ? [{ from: 'vendas', to: 'suporte', count: i % 3 }] : [], agents: i % 3 ? [{ agent: 'ana', count: i % 3 }] : [] },
      flows: {
        flows: [
          { id: 'triagem', name: 'Triagem inicial', count: triagem.started, completed: triagem.completed, expected: triagem.completed - 1 },
          { id: 'boleto', name: 'Segunda via de boleto', count: boleto.started, completed: boleto.completed, expected: null },
        ],
      },
      flowResults: {
        results: [
          { flowId: 'triagem', flowName: 'Triagem inicial', title: 'motivo', labels: ['Financeiro', 'Suporte', 'Comercial'], results: motivo },
          { flowId: 'triagem', flowName: 'Triagem inicial', title: 'resolvido', labels: ['sim', 'não'], results: [triagem.completed - 1, 1] },
          { flowId: 'boleto', flowName: 'Segunda via de boleto', title: 'resolvido', labels: ['sim', 'não'], results: [boleto.completed - (i % 2), i % 2] },
        ],
      },
    });
  }
  return {
    from: list[0]!.date,
    to: list[list.length - 1]!.date,
    timeZone: 'America/Sao_Paulo',
    days: list,
    agents: [
      { id: 'ana', displayName: 'Ana Souza' },
      { id: 'bia', displayName: 'Bia Lima' },
      ...(scope === 'admin' ? [{ id: 'caio', displayName: 'Caio Reis' }] : []),
    ],
    departments: [{ id: 'vendas', displayName: 'Vendas' }, ...(scope === 'admin' ? [{ id: 'suporte', displayName: 'Suporte' }] : [])],
    channels: [
      { id: 'wa', label: 'WhatsApp' },
      { id: 'site', label: 'Chat do site' },
    ],
    tags: [
      { id: 'venda', name: 'Venda', color: '#01b882' },
      { id: 'duvida', name: 'Dúvida', color: '#f2b000' },
    ],
  };
}

/** A period without chats. */
export function emptyReport(): DashboardReport {
  const r = fixtureReport('2026-01-01', 7);
  for (const d of r.days) {
    d.roomDate = { countRooms: 0, countContacts: 0, agentsRooms: [], departmentRooms: [], channelRooms: [] };
    d.firstAttend = { agents: [], departaments: [] };
    d.userStatus = { agents: [] };
    d.npsAnswered = { npsAgents: [] };
    d.csatAnswered = { csatAgents: [] };
    d.tagsReport = { tags: [] };
    d.agentTMA = { tma: [] };
    d.departmentTMA = { tma: [] };
    d.roomsHoursHeatmap = { hoursHitmap: d.roomsHoursHeatmap.hoursHitmap.map((h) => ({ ...h, count: 0 })) };
    d.transfers = { count: 0, departments: [], agents: [] };
    d.flows = { flows: [] };
    d.flowResults = { results: [] };
  }
  return r;
}

/** A week with chats but no flow run. */
export function withoutFlows(report: DashboardReport): DashboardReport {
  return { ...report, days: report.days.map((d) => ({ ...d, flows: { flows: [] }, flowResults: { results: [] } })) };
}
