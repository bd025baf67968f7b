import type { LiveSource, LiveSubscriptionLike } from '@atendimento/console';
import { messages } from '@atendimento/schemas';
import { apiRequest } from '../../api/api';
import type { FakeRoutes } from '../../stories/fakeApi';
import type { Campaign, CampaignMessageRow, CampaignPreview, CampaignsBackend } from './campaignsData';

type Listener = Parameters<LiveSubscriptionLike['onUpdate']>[0];

/** A live source stories and specs push records into (`push`), as the hub would after a change. */
export function fakeLive() {
  const listeners = new Set<Listener>();
  const live: LiveSource = {
    subscribe() {
      const own = new Set<Listener>();
      return {
        records: [], state: 'live',
        onUpdate(listener) {
          own.add(listener);
          listeners.add(listener);
          return () => (own.delete(listener), listeners.delete(listener));
        },
        close() {
          for (const l of own) listeners.delete(l);
        },
      };
    },
  };
  return {
    live,
    push(record: Campaign) {
      const r = record as unknown as { id: string };
      for (const l of [...listeners]) l({ kind: 'changes', records: [r], frame: { modified: [r] } });
    },
  };
}

export const storyLive = fakeLive();
export const storyBackend: CampaignsBackend = { request: apiRequest, live: storyLive.live };

export const counters = (over: Partial<Campaign['counters']> = {}): Campaign['counters'] => ({ total: 5, done: 0, sent: 0, delivered: 0, read: 0, interacted: 0, clicked: 0, error: 0, ...over });

export function campaign(over: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c1', name: 'Black Friday', channelId: 'wa-meta', template: { name: 'boas_vindas', language: 'pt_BR', params: ['nome'] },
    defaultReply: 'Obrigado pelo retorno!', tag: 'Campanha', description: 'Ofertas para clientes ativos', flow: null, file: null,
    startDate: null, endDate: null, startAt: null, endAt: null, comercialTime: false, weekEnd: true, paused: false, proccessed: false, proccessedAt: null,
    campaign: true, lifeControl: { createdAt: '2026-11-20T13:00:00.000Z', deletedAt: null }, counters: counters({ done: 3, sent: 3, delivered: 2, read: 1, interacted: 1 }), ...over,
  };
}

export const messageRows: CampaignMessageRow[] = [
  { id: 'm1', campaignId: 'c1', row: 2, chatId: '551187654321', displayName: 'Ana', text: 'Olá Ana', type: 'template', status: { sent: 'x', delivered: 'x', read: 'x' }, proccessed: true, tag: { name: 'Campanha' }, answer: 'Quero!', interacted: true, clicked: false, statusText: 'Lido' },
  { id: 'm2', campaignId: 'c1', row: 3, chatId: '551112345678', displayName: 'Bruno', text: 'Olá Bruno', type: 'template', status: { sent: 'x', delivered: 'x' }, proccessed: true, tag: { name: 'Campanha' }, answer: null, interacted: false, clicked: false, statusText: 'Entregue' },
  { id: 'm3', campaignId: 'c1', row: 4, chatId: '552188887777', displayName: 'Carla', text: 'Olá Carla', type: 'template', status: { errors: [{ title: 'Undeliverable', titleptBR: 'Mensagem não entregue' }] }, proccessed: true, tag: null, answer: null, interacted: false, clicked: false, statusText: 'Erro: Mensagem não entregue' },
  { id: 'm4', campaignId: 'c1', row: 5, chatId: '551199998888', displayName: 'Davi', text: 'Olá Davi', type: 'template', status: null, proccessed: false, tag: null, answer: null, interacted: false, clicked: false, statusText: 'Não enviado' },
];

export const rejectedPreview: CampaignPreview = {
  validCount: 3, rejectedCount: 2,
  rejected: [{ line: 4, chatId: '123', displayName: 'Curto', reason: 'Telefone inválido' }, { line: 6, chatId: '5511977776666', displayName: 'Bloqueado', reason: 'Contato bloqueado' }],
  rejectedCsv: 'chatId;nome;linha;motivo\n123;Curto;4;Telefone inválido\n5511977776666;Bloqueado;6;Contato bloqueado\n',
  sample: [{ line: 2, chatId: '551187654321', displayName: 'Ana', text: 'Olá Ana, tudo bem?' }],
};

/** The campaign API of the stories: detail, messages, PATCH paused, list, upload lookups. */
export function campaignApi(initial: Campaign, list: Campaign[] = [initial]): FakeRoutes {
  let current = initial;
  return {
    'GET /api/notifications/c1/messages': { body: { data: messageRows, meta: { total: messageRows.length } } },
    'GET /api/notifications/c1/messages.csv': { body: 'Nome;Número;Status;Resposta\n', headers: { 'content-type': 'text/csv' } },
    'GET /api/notifications/csvTemplate': { body: 'chatId;displayName;param1\n', headers: { 'content-type': 'text/csv' } },
    'GET /api/notifications/c1': () => ({ body: { data: current } }),
    'PATCH /api/notifications/c1': (call) => {
      current = { ...current, paused: Boolean((call.body as { paused?: boolean }).paused) };
      return { body: { data: current } };
    },
    'GET /api/notifications': (call) => ({ body: { data: call.path.includes('external=true') ? list : list.filter((c) => c.campaign), meta: { total: list.length } } }),
    'GET /api/notifications/options': { body: { data: { channels: [{ id: 'wa-meta', displayName: 'WhatsApp Comercial' }], templates: [
      { channelId: 'wa-meta', name: 'boas_vindas', language: 'pt_BR', components: [{ type: 'BODY', text: 'Olá {{1}}, tudo bem?' }] },
      { channelId: 'wa-meta', name: 'aviso_10', language: 'pt_BR', components: [{ type: 'BODY', text: 'Aviso 10 para {{1}}.' }] },
      { channelId: 'wa-meta', name: 'aviso_2', language: 'pt_BR', components: [{ type: 'BODY', text: 'Aviso 2 para {{1}}.' }] },
    ], flows: [{ id: 'flow-triagem', name: 'Triagem inicial' }] } } },
    // As the server's schema: a parameter without its column is refused on that parameter.
    'POST /api/notifications/preview': (call) => {
      const params = (JSON.parse(String((call.body as FormData).get('template'))) as { params: string[] }).params;
      const empty = params.findIndex((p) => !p);
      if (empty < 0) return { body: { data: rejectedPreview } };
      const message = messages.campaigns.paramMissing;
      return { status: 400, body: { error: 'validation_failed', errorMessage: message, fields: [{ field: `template.params.${empty}`, message }] } };
    },
    'POST /api/notifications': (call) => {
      const confirmed = call.body instanceof FormData && call.body.get('confirmValid') === 'true';
      return confirmed ? { status: 201, body: { data: { ...initial, id: 'c2' } } } : { status: 422, body: { error: 'campaign_has_rejected_rows', errorMessage: 'O arquivo tem linhas rejeitadas.', data: rejectedPreview } };
    },
  };
}
