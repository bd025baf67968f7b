import type { SeededRandom } from '@atendimento/integrations/seeded-random';
import { parseJson, toJson, type Db } from '../knex';
import { createRoomRepository, roomFromRow } from '../repositories/room-repository';

/**
 * The demo tenant's rows (`npm start`, server/src/demo/seed-demo.ts): departments, queues,
 * tags, fixed messages, channels, contacts and rooms in every state with their messages,
 * written in one transaction. Deterministic: every choice comes from the caller's seeded random.
 */
export const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João', 'Larissa', 'Marcos', 'Natália', 'Otávio', 'Patrícia', 'Rafael', 'Sabrina', 'Thiago', 'Vanessa', 'Wagner', 'Yasmin', 'Lucas', 'Mariana', 'Pedro', 'Juliana', 'Gustavo', 'Camila', 'Rodrigo', 'Letícia', 'André'];
export const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa'];
const DDD = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '48', '19', '62'];
const CUSTOMER_LINES = [
  'Olá, boa tarde! Gostaria de saber o status do meu pedido.',
  'Bom dia, preciso da segunda via do boleto.',
  'Vocês entregam em Campinas?',
  'O produto chegou com defeito, como faço a troca?',
  'Qual o prazo de entrega para o CEP 01310-100?',
  'Consegue me mandar a tabela de preços atualizada?',
  'Não consigo acessar minha conta, podem me ajudar?',
  'Obrigado pelo retorno!',
  'Posso parcelar em 3 vezes no cartão?',
  'Quero cancelar minha assinatura.',
  'A nota fiscal ainda não chegou no meu e-mail.',
  'Tem esse modelo na cor azul?',
];
const AGENT_LINES = [
  'Olá! Sou do atendimento, vou verificar para você.',
  'Um momento, por favor, estou consultando o sistema.',
  'Seu pedido saiu para entrega hoje pela manhã.',
  'Enviei a segunda via para o seu e-mail cadastrado.',
  'Sim, parcelamos em até 6 vezes sem juros.',
  'Já abri a solicitação de troca, o número é 48213.',
  'Posso ajudar em algo mais?',
  'Perfeito, qualquer dúvida estou à disposição!',
];
/** The demo agent's ERP user id: the local ERP's first salesman (A3_COD). */
export const DEMO_SALESMAN_CODE = '000001';

export const JUSTIFIES = ['Dúvida resolvida', 'Venda realizada', 'Sem retorno do cliente', 'Encaminhado ao setor responsável'];

/**
 * Tags of a demo room: 'Dúvida' on half the closed chats; on open chats 'Urgente' or 'Venda' on
 * every other one, so the list's tag filter (and showChatsWithTags) has something to narrow.
 */
function demoTags(state: string, i: number): { tags: string[]; tagsNames: string[] } {
  if (state === 'closed') return i % 2 ? { tags: ['duvida'], tagsNames: ['Dúvida'] } : { tags: [], tagsNames: [] };
  if (state === 'bot' || i % 2) return { tags: [], tagsNames: [] };
  return i % 4 === 0 ? { tags: ['urgente'], tagsNames: ['Urgente'] } : { tags: ['venda'], tagsNames: ['Venda'] };
}

/** The triage flow's 'motivo' result values in the demo. */
const TRIAGE = ['Financeiro', 'Suporte', 'Comercial'];

function iso(base: number, offsetMinutes: number): string {
  return new Date(base + offsetMinutes * 60_000).toISOString();
}

function daysWork(enable: boolean) {
  const slot = (on: boolean) => ({ enable: on && enable, startAt1: '08:00', endAt1: '12:00', startAt2: '13:00', endAt2: '18:00' });
  return {
    monday: slot(true), tuesday: slot(true), wednesday: slot(true), thursday: slot(true), friday: slot(true),
    saturday: { enable, startAt1: '08:00', endAt1: '12:00', startAt2: '', endAt2: '' },
    sunday: slot(false),
  };
}

/**
 * Routing in the demo (docs/routing.md), so `npm start` shows it at any hour: Comercial gives
 * new chats to the online agent with the fewest ('Menor carga', up to 12 each: the
 * demo agent who signs in gets the chats waiting there and still has room for the customer a
 * new user plays), answers them at once,
 * nudges a silent customer after 5 minutes, closes after 60, and sends a chat nobody answered
 * in 10 minutes to Suporte Técnico. Suporte assigns in a fixed order; Financeiro waits in its
 * queue and keeps business hours (Mon–Fri 08–12 and 13–18, Sat 08–12, São Paulo time).
 */
const ROUTING: Record<string, Record<string, unknown>> = {
  comercial: {
    agentSelectionRule: 'load', roomsPerAgent: 12, waitingTime: 10, transhipment: 'deptosuporte', inactiveTime: '02:00',
    automaticAnswer: 'Olá! Recebemos sua mensagem e um atendente do Comercial já vai falar com você.',
    // The seed's queueMessages count from the customer's last message, answered or not: a text for
    // a customer who may be waiting for us, and no automatic close (inactiveTime closes silent chats).
    queueMessages: [
      { command: 'sendMessage', arg: 'Seu atendimento continua na fila e já vamos falar com você. Se quiser, adiante os detalhes por aqui.', timeInMinutes: 5, repeat: false },
    ],
    daysWork: daysWork(false),
  },
  suporte: { agentSelectionRule: 'predefinedOrder', roomsPerAgent: 4, waitingTime: null, transhipment: null, inactiveTime: '02:00', queueMessages: [], daysWork: daysWork(false) },
  financeiro: {
    agentSelectionRule: 'wait', roomsPerAgent: 5, waitingTime: null, transhipment: null, inactiveTime: '04:00', queueMessages: [], daysWork: daysWork(true),
    outOfHoursMessage: 'Olá! O Financeiro atende de segunda a sexta, das 8h às 18h, e aos sábados até o meio-dia. Responderemos assim que abrirmos.',
    outOfHoursAction: 'wait',
  },
};

interface DemoUser {
  id: string;
  displayName: string;
}

export async function insertDemoData(
  db: Db,
  tenantId: string,
  ctx: { now: Date; base: number; rnd: SeededRandom; supervisor: DemoUser; agent: DemoUser; agents: DemoUser[] },
): Promise<void> {
  const { now, base, rnd, supervisor, agent, agents } = ctx;
  const rooms = createRoomRepository(db);
  const iso0 = now.toISOString();
  const row = (id: string, data: Record<string, unknown>, extra: Record<string, unknown>) => ({
    id, tenant_id: tenantId, data: toJson({ id, ...data, lifeControl: { createdAt: iso0, deletedAt: null } }), created_at: iso0, updated_at: iso0, deleted_at: null, ...extra,
  });

  await db.transaction(async (trx) => {
    // Departments, each with a supervisor, agents and a department queue ("depto" + id).
    const departments = [
      { id: 'comercial', displayName: 'Comercial', agents: [supervisor, agent, agents[2]!, agents[3]!, agents[4]!], supervisors: [supervisor] },
      { id: 'suporte', displayName: 'Suporte Técnico', agents: [agents[5]!, agents[6]!, agents[7]!], supervisors: [agents[5]!] },
      { id: 'financeiro', displayName: 'Financeiro', agents: [agents[8]!, agents[9]!], supervisors: [supervisor] },
    ];
    for (const [index, d] of departments.entries()) {
      await trx('departments').insert(row(d.id, {
        displayName: d.displayName, active: true, priorityOverBot: false, supervisors: d.supervisors.map((u) => u.id), parent: null,
        menuOrder: index, agents: d.agents.map((u) => u.id), claims: {}, description: `Equipe ${d.displayName}`,
        automaticAnswer: null, email: `${d.id}@exemplo.com.br`, orderedAgents: d.agents.map((u) => u.id), ...ROUTING[d.id],
      }, { display_name: d.displayName, active: true }));
      await trx('department_members').insert([
        ...d.agents.map((u) => ({ tenant_id: tenantId, department_id: d.id, user_id: u.id, role: 'agent' })),
        ...d.supervisors.map((u) => ({ tenant_id: tenantId, department_id: d.id, user_id: u.id, role: 'supervisor' })),
      ]);
      await trx('queues').insert(row(`depto${d.id}`, {
        active: true, default: index === 0, isDept: true, name: d.displayName, displayName: d.displayName, agents: d.agents.map((u) => u.id), departament: d.id, contexts: [], transhipment: null,
      }, { name: d.displayName, department_id: d.id, active: true }));
    }

    const tags = [['urgente', 'Urgente', '#D32F2FFF'], ['venda', 'Venda', '#388E3CFF'], ['reclamacao', 'Reclamação', '#F57C00FF'], ['duvida', 'Dúvida', '#1976D2FF'], ['posvenda', 'Pós-venda', '#7B1FA2FF']] as const;
    for (const [id, name, color] of tags) await trx('tags').insert(row(id, { active: true, name, color, department: null }, { name, active: true }));

    const fixed = [
      ['bomdia', 'Bom dia! Sou do atendimento, em que posso ajudar?'],
      ['aguarde', 'Por favor, aguarde um instante enquanto verifico.'],
      ['horario', 'Nosso horário de atendimento é de segunda a sexta, das 8h às 18h.'],
      ['boleto', 'Segue o link para emissão da segunda via do boleto.'],
      ['obrigado', 'Obrigado pelo contato! Tenha um ótimo dia.'],
    ] as const;
    for (const [tag, message] of fixed) {
      await trx('fixed_messages').insert(row(`fm-${tag}`, { active: true, message, fileUrl: null, tag, uid: null, displayName: 'Geral' }, { owner_id: null, active: true }));
    }

    // A holiday is a contingency (docs/routing.md): on Christmas every new chat gets this message.
    const year = now.getUTCFullYear();
    const christmas = 'Feliz Natal! Hoje nossa equipe está de folga; sua mensagem foi recebida e responderemos no próximo dia útil.';
    await trx('documents').insert(row('natal', {
      active: true, finished: false, closeChat: false, newChatsOnly: true, inAttend: false, startDate: `${year}-12-25`, startHour: '00:00', endDate: `${year}-12-25`, endHour: '23:59',
      startTime: `${year}-12-25T03:00:00.000Z`, endTime: `${year}-12-26T02:59:00.000Z`, timezoneOffset: -3, channels: [], flow: null, departamentId: null, tags: [],
      defaultMessage: christmas,
    }, { collection: 'contingecies', title: christmas, active: true, owner_id: null }));
    await trx('deadlines').insert({ tenant_id: tenantId, key: 'contingency:natal', kind: 'contingencyEnd', subject_id: 'natal', due_at: `${year}-12-26T02:59:00.000Z`, payload: toJson({}), attempts: 0, last_error: null, created_at: iso0 });

    // Flows a bot runs (docs/flows.md): the dashboard's 'Fluxos' charts count the runs below.
    const flows = [
      { id: 'flow-triagem', name: 'Triagem inicial', expectedResult: { name: 'resolvido', value: 'sim' } },
      { id: 'flow-boleto', name: 'Segunda via de boleto', expectedResult: null },
    ];
    for (const f of flows) {
      await trx('documents').insert(row(f.id, { active: true, name: f.name, expectedResult: f.expectedResult, flow: { steps: ['saudacao', 'menu', 'encerramento'] } }, { collection: 'flows', title: f.name, active: true, owner_id: null }));
    }

    await trx('channels').insert(row('webchat', { displayName: 'Chat do site', type: 'webchat', phoneNumber: null, hide: false, active: true, color: '#1976D2', menuOrder: 0, migrated: true, claims: {}, departmentId: 'comercial' }, { type: 'webchat', display_name: 'Chat do site', active: true }));
    await trx('channels').insert(row('whatsapp-comercial', { displayName: 'WhatsApp Comercial', type: 'meta', phoneNumber: '5511999990000', hide: false, active: true, color: '#25D366', menuOrder: 1, migrated: true, claims: {}, departmentId: 'comercial' }, { type: 'meta', display_name: 'WhatsApp Comercial', active: true }));
    // The demo mailbox (docs/email.md): `npm start` wires it to a local dovecot when one is installed.
    await trx('channels').insert(row('email-comercial', { displayName: 'E-mail Comercial', type: 'mail', phoneNumber: null, hide: false, active: true, color: '#6D4C41', menuOrder: 2, migrated: true, claims: {}, departmentId: 'comercial' }, { type: 'mail', display_name: 'E-mail Comercial', active: true }));

    // Contacts.
    const contacts: { id: string; displayName: string; phone: string; email: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const phone = `55${rnd.pick(DDD)}9${String(rnd.int(10_000_000, 99_999_999))}`;
      const email = `${first}.${last}${i}@cliente.com.br`.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      const c = { id: `c-${String(i + 1).padStart(3, '0')}`, displayName: `${first} ${last}`, phone, email };
      contacts.push(c);
      await trx('contacts').insert(row(c.id, {
        active: true, photoUrl: null, displayName: c.displayName, name: `${first} ${rnd.pick(LAST)} ${last}`, phone, email, channels: i % 4 === 0 ? ['webchat'] : ['whatsapp'],
        // Every third contact is a client of the demo agent's ERP salesman code ('Hitorico dos meus clientes'),
        // linked to a client of the demo ERP (code + store) for the 'Orçamentos' portal.
        agents: [], clients: i % 3 === 0 ? [`${String((i % 40) + 1).padStart(6, '0')}01`] : [], prospects: [], salesmen: i % 3 === 0 ? [DEMO_SALESMAN_CODE] : [], vendId: i % 3 === 0 ? DEMO_SALESMAN_CODE : null, group: false, chatId: phone, blockedSending: i === 7, blockedReceiving: false, autoBlocked: false, chatsHistory: [], clientsName: [],
      }, { display_name: c.displayName, phone, email, active: true }));
    }

    // Rooms in every state, with messages.
    const states = [
      ...Array(12).fill('queued'), ...Array(24).fill('attending'), ...Array(4).fill('onHold'), ...Array(5).fill('bot'), ...Array(15).fill('closed'),
    ] as ('queued' | 'attending' | 'onHold' | 'bot' | 'closed')[];
    let roomInc = 0;
    /** Each WhatsApp contact's last message: the 24-hour window (docs/whatsapp.md) reads `{channelId}LastReply`. */
    const lastReplies = new Map<string, string>();
    /** Each contact's agents (its 'carteira'): who attended its chats. The console's Contatos tab lists them to those agents. */
    const contactAgents = new Map<string, Set<string>>();
    let recentForAgent = false;
    for (const [i, state] of states.entries()) {
      roomInc += 1;
      const contact = contacts[i * 3]!;
      const dept = departments[i % departments.length]!;
      const isWeb = i % 4 === 0;
      const channelId = isWeb ? 'webchat' : 'whatsapp-comercial';
      const roomAgent = state === 'attending' || state === 'onHold' || state === 'closed' ? dept.agents[i % dept.agents.length]! : null;
      if (roomAgent) contactAgents.set(contact.id, (contactAgents.get(contact.id) ?? new Set()).add(roomAgent.id));
      const count = rnd.int(4, 12);
      // The demo agent's first WhatsApp chat is a live one: the customer wrote minutes ago, so
      // the agent can answer with free text (inside the 24-hour window) right after `npm start`.
      const live = !recentForAgent && !isWeb && state === 'attending' && roomAgent?.id === agent.id;
      if (live) recentForAgent = true;
      const start = live ? now.getTime() - (count * 3 + 15) * 60_000 : base + i * 67 * 60_000;
      const roomId = rnd.id('r');
      const msgs: Record<string, unknown>[] = [];
      for (let m = 0; m < count; m++) {
        const fromClient = m % 2 === 0 || !roomAgent;
        const createdAt = iso(start, m * 3);
        const id = rnd.id('m');
        msgs.push({
          id, messageId: id, messageExtId: fromClient && !isWeb ? `wamid.demo${roomInc}x${m}` : null,
          from: fromClient ? (isWeb ? 'widget' : 'meta') : 'vueJs', to: fromClient ? 'vueJs' : isWeb ? 'widget' : 'meta', channelId, type: 'text',
          text: fromClient ? rnd.pick(CUSTOMER_LINES) : rnd.pick(AGENT_LINES),
          author: fromClient ? { id: contact.id, displayName: contact.displayName, type: 'client', phone: contact.phone } : { id: roomAgent!.id, displayName: roomAgent!.displayName, type: 'agent' },
          status: fromClient ? null : { sent: true, delivered: true, read: m < count - 1 },
          lifeControl: { createdAt },
        });
      }
      if (!isWeb) {
        const lastClient = msgs.filter((m) => (m.author as { type: string }).type === 'client').at(-1);
        const at = (lastClient?.lifeControl as { createdAt: string } | undefined)?.createdAt;
        if (at && at > (lastReplies.get(contact.id) ?? '')) lastReplies.set(contact.id, at);
      }
      const last = msgs[msgs.length - 1]!;
      const lastFromClient = (last.author as { type: string }).type === 'client';
      // What the chat writes on every message: the console's 24-hour window reads the customer's.
      const lastOf = (type: string) => {
        const found = msgs.filter((m) => (m.author as { type: string }).type === type).at(-1);
        return found ? { createdAt: (found.lifeControl as { createdAt: string }).createdAt, messageId: found.id as string } : null;
      };
      const countOf = (type: string) => msgs.filter((m) => (m.author as { type: string }).type === type).length;
      const queue = { id: `depto${dept.id}`, name: dept.displayName, displayName: dept.displayName, parent: null };
      const active = state !== 'closed';
      const room = {
        id: roomId, roomInc, chatId: isWeb ? contact.email : contact.phone, channel: isWeb ? 'webchat' : 'meta', channelId, origin: isWeb ? 'webchat' : 'meta',
        destination: state === 'bot' ? 'bot' : 'vueJs', author: { id: contact.id, displayName: contact.displayName, photoUrl: null, email: contact.email, chatId: isWeb ? contact.email : contact.phone, phone: contact.phone, type: 'client' },
        group: false, internal: false, active, inAttend: state === 'attending' || state === 'onHold', hide: false,
        agents: roomAgent && active ? [{ id: roomAgent.id, displayName: roomAgent.displayName }] : [],
        agentsHistory: roomAgent ? [{ id: roomAgent.id, displayName: roomAgent.displayName }] : [],
        queues: state === 'bot' ? [] : [queue], queuesHistory: state === 'bot' ? [] : [queue], ...demoTags(state, i),
        contexts: [], clientsName: [], salesmenName: [],
        lastMessages: { contactMessage: lastOf('client'), agentMessage: lastOf('agent') },
        messagesCount: { contactMessage: countOf('client'), agentMessage: countOf('agent') },
        lastMessage: { text: last.text, unread: active && lastFromClient, author: { type: (last.author as { type: string }).type }, lifeControl: { createdAt: (last.lifeControl as { createdAt: string }).createdAt }, messageId: last.id, type: 'text' },
        onHold: state === 'onHold' ? { active: true, message: 'Por favor, aguarde um instante enquanto verifico.' } : { active: false, message: null },
        replyTo: null, nps: state === 'closed' && i % 3 === 0 ? { value: rnd.int(6, 10), reason: 'Atendimento rápido', answerdAt: iso(start, count * 3 + 10) } : null,
        csat: null, annotated: false,
        closedBy: state === 'closed' ? { id: roomAgent!.id, displayName: roomAgent!.displayName, justify: rnd.pick(JUSTIFIES), closedAt: iso(start, count * 3 + 5) } : null,
        lifeControl: { createdAt: iso(start, 0), deletedAt: null },
      };
      // Through the room repository, so the indexed columns and memberships match what the chat writes.
      const publicToken = rnd.id('p') + rnd.id();
      await rooms.insert(trx, tenantId, roomFromRow({
        id: roomId, data: toJson({ ...room, departmentId: dept.id }), created_at: iso(start, 0), updated_at: iso(start, count * 3), deleted_at: null,
        room_inc: roomInc, chat_id: room.chatId, channel: room.channel, channel_id: channelId, contact_id: contact.id,
        destination: room.destination, active, in_attend: room.inAttend, internal: false, unread_count: room.lastMessage.unread ? 1 : 0,
        public_token: publicToken, last_message_at: room.lastMessage.lifeControl.createdAt,
      }));
      // The bot's flow runs in this chat, as it reported them (POST /api/flow-runs); no random
      // draw here, so the rest of the demo stays what it was.
      const runs: { flowId: string; completed: boolean; results: Record<string, string> }[] = [];
      if (i % 2 === 0) runs.push({ flowId: 'flow-triagem', completed: state !== 'bot', results: state === 'bot' ? { motivo: TRIAGE[i % 3]! } : { motivo: TRIAGE[i % 3]!, resolvido: i % 6 === 0 ? 'não' : 'sim' } });
      if (i % 5 === 0) runs.push({ flowId: 'flow-boleto', completed: i % 10 === 0, results: i % 10 === 0 ? { 'forma de envio': isWeb ? 'E-mail' : 'WhatsApp' } : {} });
      for (const [n, run] of runs.entries()) {
        await trx('flow_runs').insert({ tenant_id: tenantId, id: `${roomId}-run${n}`, room_id: roomId, flow_id: run.flowId, completed: run.completed, results: JSON.stringify(run.results), created_at: iso(start, 1), updated_at: iso(start, 2) });
      }
      for (const m of msgs) {
        await trx('messages').insert({
          id: m.id, tenant_id: tenantId, room_id: roomId, channel_id: channelId, external_id: m.messageExtId, author_type: (m.author as { type: string }).type,
          author_id: (m.author as { id: string }).id, type: 'text', status: m.status ? ((m.status as { read: boolean }).read ? 'read' : 'delivered') : null,
          data: toJson(m), created_at: (m.lifeControl as { createdAt: string }).createdAt, updated_at: (m.lifeControl as { createdAt: string }).createdAt,
        });
      }
    }
    for (const contactId of new Set([...lastReplies.keys(), ...contactAgents.keys()])) {
      const stored = await trx('contacts').where({ tenant_id: tenantId, id: contactId }).first('data');
      const at = lastReplies.get(contactId);
      const patch = { ...(at && { 'whatsapp-comercialLastReply': at }), agents: [...(contactAgents.get(contactId) ?? [])] };
      await trx('contacts').where({ tenant_id: tenantId, id: contactId }).update({ data: toJson({ ...parseJson<Record<string, unknown>>(stored.data, {}), ...patch }) });
    }
    await trx('counters').insert({ tenant_id: tenantId, name: 'roomInc', value: roomInc });
  });
}
