import type { AppConfig } from './domain';
import { claimOn } from './claim-defaults';
import { DEFAULT_CLOSE_RULES, DEFAULT_TIME_ZONE } from './chat/closing';
import { CHAT_TAB_LABEL_MAX, CHAT_TABS, chatTabSettings, UNHIDEABLE_CHAT_TABS, type ChatTabId } from './chat/tabs';

/**
 * The tenant settings screen (docs/tenancy.md "Settings"): one JSON Schema of the editable
 * app configuration, grouped as the screen shows it. The engine renders it with its rjsf form
 * (the same widgets and validator as the registers) and the server validates every save with
 * ajv on this same schema, then maps the groups back onto `tenants.app_config`.
 *
 * To make a new tenant claim editable: add it to its group in CLAIM_GROUPS with its one-line
 * help. The form, the validation, the mapping and the audit follow. Every claim is a boolean
 * (`AppConfig.claims`); a setting of another type gets its own property and mapping below
 * (e.g. `atendimento.timeZone` → `AppConfig.timeZone`). schemas/src/tenant-settings.spec.ts
 * fails when a claim the seeds name or the code reads is missing here.
 *
 * A few claims the seeds name have no effect in this product yet; their help says so.
 *
 * Rules across fields that JSON Schema cannot say (the LGPD retention's media ≤ chats, one
 * entry per chat tab) are in {@link settingsRuleErrors}: the server runs them after ajv and
 * answers the same 400 `validation_failed` with the message on the field.
 */

/** Tenant claims of the seed documents, by the screen's group, each with its pt-BR help. */
export const CLAIM_GROUPS = {
  atendimento: {
    publicRegister: 'Permite que novos agentes se cadastrem pela tela de cadastro.',
    googleSignIn: "Mostra 'Entrar com Google' na tela de login.",
    disablePasswordLogin: 'Esconde o login por e-mail e senha (só Google).',
    allowFollowMe: "Habilita o 'Siga-me' (receber chats no WhatsApp pessoal).",
    queues: 'Usa filas de atendimento além dos departamentos.',
    inbox: 'Habilita a aba Inbox de e-mails.',
    multiTags: 'Permite mais de uma tag por chat.',
    tagsPerDepto: 'Tags ficam restritas ao departamento.',
    filterChatsByTags: 'Permite filtrar a lista de chats por tags.',
    notifyTag: 'Notifica agentes quando uma tag é aplicada.',
    enableChatOnHold: 'Permite colocar chats em espera.',
    disableSetUnread: "Esconde a opção 'Marcar como não lida'.",
    enableBotTab: "Mostra a aba 'Bot' (chats com o bot) a todos os agentes.",
    backBeggining: "Mostra 'Voltar ao início do bot' no menu do chat.",
    disableRestartApp: "Agentes não podem usar 'Voltar ao início do bot'.",
    agentBotPriority: 'Chats do bot vão primeiro ao último agente do contato.',
    depBotPriority: 'Chats do bot vão primeiro ao último departamento do contato.',
    denyDisableDepartment: 'Impede desativar departamentos com agentes.',
    disableNotificationDialog: 'Não mostra o aviso de notificações aos agentes.',
    negotiations: 'Habilita o cadastro de negociações.',
    catalog: 'Habilita o catálogo de produtos.',
    externalClients: 'Clientes vêm de uma fonte externa (somente leitura).',
    externalSalesmen: 'Representantes vêm de uma fonte externa.',
    disableClientEdit: 'Impede editar clientes.',
    allowSecondaryEmail: 'Permite um e-mail secundário nos contatos.',
    scheduleCampain: 'Permite agendar campanhas.',
    enableAgentStatusExporter: 'Permite exportar o histórico de status dos agentes.',
    exportAdminOnly: 'Só administradores exportam relatórios.',
    sumarizeRoom: 'Habilita resumos de atendimentos.',
    clients: 'Habilita o cadastro de Clientes.',
    employees: 'Habilita o cadastro de Funcionários.',
    participants: 'Habilita o cadastro de Participantes.',
    products: 'Habilita o cadastro de Produtos.',
    stores: 'Habilita o cadastro de Lojas.',
    flowsView: 'Habilita a tela de Fluxos.',
    metaChannel: 'Habilita o cadastro de QR Codes do WhatsApp (Meta).',
    faqAnex: 'Permite anexar um arquivo às perguntas do FAQ.',
    enableAllQueuesTab: "Mostra a aba 'Todas Filas' a todos os agentes.",
    disableQueuesTab: "Esconde a aba 'Fila' de todos, inclusive administradores.",
    disableInternalChats: "Esconde a aba 'Interno' (chats internos entre agentes).",
    hideBlockedContacts: 'Não administradores não veem contatos bloqueados para envio.',
    hideInactiveContacts: 'Não administradores só veem contatos ativos.',
    fixedDDI: 'Novo contato: o telefone já começa com +55 (DDI do Brasil).',
    fixedMessages: "Digitar '/' na mensagem oferece as mensagens fixas.",
    enableWideFixedMessagesAccess: 'Todos veem e enviam as mensagens fixas de todos (editam só as suas).',
    disableDeleteMessages: "Ninguém exclui mensagens enviadas (esconde 'Excluir').",
    disableTemplatesWithImages: 'Não oferece templates com cabeçalho de imagem ou vídeo.',
    disableNotifications: 'Desliga as notificações do navegador para todos os agentes.',
    setInternalMessageAsRead: 'Marcar mensagens internas como lidas: ainda sem efeito neste produto.',
    enableGroupChats: 'Chats de grupo: ainda sem efeito neste produto.',
    disableHideLoadedChat: 'Não fecha o chat aberto de quem deixou de atendê-lo (ex.: depois de transferir).',
  },
  encerramento: {
    disableCloseChat: "Agentes não podem 'Encerrar' (o canal pode liberar).",
    disableCloseChatNoMessage: "Agentes não podem 'Encerrar sem mensagem'.",
    disableAskResearch: 'Agentes não podem encerrar enviando pesquisa.',
    forceAgentMessage: 'Só encerra chats em que o agente já respondeu.',
    tagWhenClose: 'Exige uma tag para encerrar.',
    hasNextContact: 'Pede a data do próximo contato ao encerrar.',
  },
  transferencia: {
    remainInChat: 'Por padrão o agente continua no chat ao transferir.',
    keepOnDepartment: 'Transferências mantêm o chat no departamento.',
    transferWithQueue: 'Transferir a um agente de outro departamento move o chat para a fila dele.',
    enableAbsentTransfer: 'Permite transferir para agentes offline.',
    allowOfflineTransfer: 'Permite transferir para filas sem agentes online.',
    disableChooseTransfer: 'Só administradores transferem chats para agentes.',
    disableChooseQueue: 'Só administradores movem chats para filas.',
  },
  pesquisas: {
    askResearch: 'Envia pesquisa NPS ao encerrar.',
    askResearchCsat: 'Envia pesquisa CSAT ao encerrar.',
    npsFive: 'NPS de 1 a 5 em vez de 0 a 10.',
    likertScale5: 'Mostra gráficos em escala Likert de 5 pontos.',
    likertScale10: 'Mostra gráficos em escala Likert de 10 pontos.',
    flowCharts: 'Mostra gráficos de fluxos no dashboard.',
    flowResultCharts: 'Mostra resultados dos fluxos no dashboard.',
    flowExpectedResult: 'Mostra o resultado esperado dos fluxos.',
    flowResultsPerFlow: 'Mostra resultados por fluxo.',
  },
  aparencia: {
    hideRightMenus: "Esconde 'Agentes Online', 'Siga-me' e 'Novidades' do menu.",
    logoutLast: "Coloca 'Sair' no fim do menu.",
    ascOrder: 'Listas de chats começam pela mensagem mais antiga.',
    disableCopyToast: "Não mostra o aviso 'Copiado' ao copiar um texto.",
    reverseOrder: 'Ordem inversa: ainda sem efeito neste produto.',
    orderedChatMenu: 'Menu do chat ordenado: ainda sem efeito neste produto.',
  },
} as const;

/** Group titles of the screen. */
export const SETTINGS_GROUPS = {
  atendimento: 'Atendimento',
  encerramento: 'Encerramento',
  transferencia: 'Transferência',
  pesquisas: 'Pesquisas',
  aparencia: 'Aparência',
  erp: 'ERP',
  visoes: 'Visões',
} as const;

type Json = Record<string, unknown>;

/** Brazil's zones (and Portugal's, UTC) with a pt-BR name; every other IANA zone shows its id. */
const NAMED_TIME_ZONES: Record<string, string> = {
  'America/Sao_Paulo': 'Horário de Brasília (America/Sao_Paulo)',
  'America/Noronha': 'Fernando de Noronha (America/Noronha)',
  'America/Bahia': 'Bahia (America/Bahia)',
  'America/Fortaleza': 'Fortaleza (America/Fortaleza)',
  'America/Recife': 'Recife (America/Recife)',
  'America/Maceio': 'Maceió (America/Maceio)',
  'America/Belem': 'Belém (America/Belem)',
  'America/Santarem': 'Santarém (America/Santarem)',
  'America/Araguaina': 'Araguaína (America/Araguaina)',
  'America/Manaus': 'Manaus (America/Manaus)',
  'America/Cuiaba': 'Cuiabá (America/Cuiaba)',
  'America/Campo_Grande': 'Campo Grande (America/Campo_Grande)',
  'America/Porto_Velho': 'Porto Velho (America/Porto_Velho)',
  'America/Boa_Vista': 'Boa Vista (America/Boa_Vista)',
  'America/Rio_Branco': 'Rio Branco (America/Rio_Branco)',
  'America/Eirunepe': 'Eirunepé (America/Eirunepe)',
  'Europe/Lisbon': 'Lisboa (Europe/Lisbon)',
  UTC: 'UTC (tempo universal)',
};

const zoneAccepted = (zone: string) => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
};

/**
 * The zones the settings offer (`AppConfig.timeZone`, read by routing's business hours, the
 * closing date and the reports): the named ones first, then every zone this runtime's Intl
 * knows, so whatever a tenant may already have stays representable.
 */
export const TIME_ZONES: readonly string[] = /* @__PURE__ */ (() => {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const known = typeof intl.supportedValuesOf === 'function' ? intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...Object.keys(NAMED_TIME_ZONES).filter((zone) => zoneAccepted(zone) !== null), ...known])];
})();

/** A stored time zone as the settings show it: itself, its canonical id, or the default. */
export function settingsTimeZone(zone: unknown): string {
  if (typeof zone !== 'string' || zone === '') return DEFAULT_TIME_ZONE;
  if (TIME_ZONES.includes(zone)) return zone;
  const canonical = zoneAccepted(zone);
  return canonical && TIME_ZONES.includes(canonical) ? canonical : DEFAULT_TIME_ZONE;
}

// The switch reads as its pt-BR sentence; the claim's key (what docs and the seeds name) is the small help under it.
const claimProps = (group: keyof typeof CLAIM_GROUPS): Json =>
  Object.fromEntries(Object.entries(CLAIM_GROUPS[group]).map(([claim, help]) => [claim, { type: 'boolean', title: help }]));

const stringList = (title: string, itemTitle: string, max = 200) => ({
  type: 'array', title, maxItems: 200,
  items: { type: 'string', title: itemTitle, minLength: 1, maxLength: max, errorMessage: `Preencha ${itemTitle.toLowerCase()} (até ${max} caracteres)` },
});

/** Days of the LGPD retention (docs/lgpd.md): 0 or empty keeps forever; at most 10 years. */
const RETENTION_MAX_DAYS = 3650;
const retentionDays = (title: string) => ({
  type: ['integer', 'null'], title, minimum: 0, maximum: RETENTION_MAX_DAYS,
  errorMessage: `Informe um número inteiro de dias entre 0 e ${RETENTION_MAX_DAYS} (0 ou vazio: manter sempre)`,
});

const COLOR = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$';
const TOAST_POSITIONS = ['top-right', 'top-left', 'bottom-right', 'bottom-left', 'top-center', 'bottom-center'] as const;
const TOAST_TITLES = ['Canto superior direito', 'Canto superior esquerdo', 'Canto inferior direito', 'Canto inferior esquerdo', 'Topo, ao centro', 'Rodapé, ao centro'];

/**
 * The settings document: one object per group. Every list's `items.title` names one entry
 * ('Justificativa', 'Status'): the screen numbers it ('Justificativa 1') instead of rjsf's
 * 'Justificativas de encerramento-1'.
 */
export const TENANT_SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['atendimento', 'encerramento', 'transferencia', 'pesquisas', 'aparencia', 'erp', 'visoes'],
  properties: {
    atendimento: {
      type: 'object', title: SETTINGS_GROUPS.atendimento, additionalProperties: false,
      properties: {
        timeZone: { type: 'string', title: 'Fuso horário', enum: TIME_ZONES, errorMessage: 'Escolha um fuso horário da lista' },
        ...claimProps('atendimento'),
      },
    },
    encerramento: {
      type: 'object', title: SETTINGS_GROUPS.encerramento, additionalProperties: false,
      properties: {
        ...claimProps('encerramento'),
        justifies: /* @__PURE__ */ stringList('Justificativas de encerramento', 'Justificativa'),
        reportOnly: { type: 'boolean', title: 'Justificativa opcional' },
        nextMaxDate: { type: 'integer', title: 'Prazo máximo do próximo contato (dias)', minimum: 1, maximum: 5000, errorMessage: 'Informe um número de dias entre 1 e 5000' },
        obsRules: {
          type: 'array', title: 'Regras da observação', maxItems: 50,
          items: {
            type: 'object', title: 'Regra', required: ['pattern', 'message'], additionalProperties: false,
            properties: {
              pattern: { type: 'string', title: 'Expressão regular', minLength: 1, maxLength: 500, errorMessage: 'Informe a expressão regular' },
              message: { type: 'string', title: 'Mensagem quando não atende', minLength: 1, maxLength: 300, errorMessage: 'Informe a mensagem' },
            },
          },
        },
        retention: {
          type: 'object', title: 'Retenção de dados (LGPD)', additionalProperties: false,
          properties: {
            closedChatsDays: /* @__PURE__ */ retentionDays('Anonimizar chats encerrados após (dias)'),
            mediaDays: /* @__PURE__ */ retentionDays('Apagar arquivos de chats encerrados após (dias)'),
          },
        },
      },
    },
    transferencia: {
      type: 'object', title: SETTINGS_GROUPS.transferencia, additionalProperties: false,
      properties: { ...claimProps('transferencia'), justifies: /* @__PURE__ */ stringList('Justificativas de transferência', 'Justificativa') },
    },
    pesquisas: { type: 'object', title: SETTINGS_GROUPS.pesquisas, additionalProperties: false, properties: /* @__PURE__ */ claimProps('pesquisas') },
    aparencia: {
      type: 'object', title: SETTINGS_GROUPS.aparencia, additionalProperties: false,
      properties: {
        ...claimProps('aparencia'),
        statusList: {
          type: 'array', title: 'Lista de status', maxItems: 30,
          items: {
            type: 'object', title: 'Status', required: ['text', 'color'], additionalProperties: false,
            properties: {
              text: { type: 'string', title: 'Status', minLength: 1, maxLength: 40, errorMessage: 'Informe o nome do status (até 40 caracteres)' },
              color: { type: 'string', title: 'Cor', pattern: COLOR, errorMessage: 'Cor inválida (use #RRGGBB)' },
            },
          },
        },
        toastPosition: { type: 'string', title: 'Posição das notificações', oneOf: TOAST_POSITIONS.map((value, i) => ({ const: value, title: TOAST_TITLES[i], errorMessage: 'Escolha uma posição da lista' })), errorMessage: 'Escolha uma posição da lista' },
        footerName: { type: ['string', 'null'], title: 'Rodapé: texto', maxLength: 120 },
        footerLink: { type: ['string', 'null'], title: 'Rodapé: link', maxLength: 500, pattern: '^(https?://|/[^/])', errorMessage: 'Informe um link começando por https:// ou uma página do sistema começando por / (ex.: /novidades)' },
        logoUrl: { type: ['string', 'null'], title: 'Logo (endereço da imagem)', maxLength: 1000, pattern: '^(https?://|/api/files/)', errorMessage: 'Informe um endereço https:// ou envie a imagem' },
        backgroundUrl: { type: ['string', 'null'], title: 'Fundo do login (endereço da imagem)', maxLength: 1000, pattern: '^(https?://|/api/files/)', errorMessage: 'Informe um endereço https:// ou envie a imagem' },
      },
    },
    erp: {
      type: 'object', title: SETTINGS_GROUPS.erp, additionalProperties: false,
      properties: {
        urls: { ...stringList('Endereços do ERP', 'Endereço', 500), items: { type: 'string', title: 'Endereço', pattern: '^https?://[^\\s]+$', maxLength: 500, errorMessage: 'Informe um endereço http(s):// válido' } },
        queryPath: { type: ['string', 'null'], title: 'Caminho da consulta', maxLength: 200, pattern: '^/', errorMessage: 'O caminho começa com /' },
        timeoutMs: { type: ['integer', 'null'], title: 'Tempo limite (ms)', minimum: 1000, maximum: 600000, errorMessage: 'Informe um tempo entre 1000 e 600000 ms' },
        searchLimit: { type: ['integer', 'null'], title: 'Limite de linhas da pesquisa', minimum: 1, maximum: 1000, errorMessage: 'Informe um limite entre 1 e 1000' },
        mapsKey: { type: ['string', 'null'], title: 'Chave do Google Maps', maxLength: 200 },
        quotesUrl: { type: ['string', 'null'], title: 'Portal de orçamentos (endereço; use {cliente} e {loja})', maxLength: 1000, pattern: '^https?://', errorMessage: 'Informe um link começando por https://' },
      },
    },
    visoes: {
      type: 'object', title: SETTINGS_GROUPS.visoes, additionalProperties: false,
      properties: {
        hiddenViews: /* @__PURE__ */ stringList('Telas ocultas (caminho, ex.: /faq)', 'Tela', 100),
        rootView: { type: ['string', 'null'], title: 'Tela inicial (caminho)', maxLength: 100, pattern: '^/', errorMessage: 'O caminho começa com /' },
        api: { type: 'boolean', title: 'Tela de API' },
        hiddenTemplates: /* @__PURE__ */ stringList('Templates ocultos', 'Template', 200),
        chatTabs: {
          type: 'array', title: 'Abas de chats', maxItems: CHAT_TABS.length,
          items: {
            type: 'object', title: 'Aba', required: ['id'], additionalProperties: false,
            properties: {
              id: { type: 'string', title: 'Aba', oneOf: CHAT_TABS.map((tab) => ({ const: tab.id, title: tab.label, errorMessage: 'Escolha uma aba da lista' })), errorMessage: 'Escolha uma aba da lista' },
              label: { type: ['string', 'null'], title: 'Rótulo', maxLength: CHAT_TAB_LABEL_MAX, errorMessage: `Rótulo de até ${CHAT_TAB_LABEL_MAX} caracteres` },
              hidden: { type: 'boolean', title: 'Oculta' },
            },
          },
        },
      },
    },
  },
} as const;

/** rjsf UI schema: each claim a switch (its key as help), ordered groups. */
export const TENANT_SETTINGS_UI: Json = /* @__PURE__ */ (() => {
  const ui: Json = { 'ui:order': Object.keys(SETTINGS_GROUPS) };
  for (const [group, claims] of Object.entries(CLAIM_GROUPS)) {
    const node: Json = {};
    for (const claim of Object.keys(claims)) node[claim] = { 'ui:widget': 'switch', 'ui:help': `Chave: ${claim}` };
    ui[group] = node;
  }
  Object.assign(ui.atendimento as Json, {
    timeZone: { 'ui:widget': 'select', 'ui:enumNames': NAMED_TIME_ZONES, 'ui:help': 'Horário de funcionamento dos departamentos, data do encerramento e relatórios.' },
  });
  Object.assign(ui.encerramento as Json, {
    reportOnly: { 'ui:widget': 'switch', 'ui:help': 'Desligado: o agente precisa escolher uma justificativa da lista.' },
    justifies: { 'ui:help': 'Opções do diálogo de encerramento.' },
    nextMaxDate: { 'ui:help': 'Quantos dias à frente a data do próximo contato pode ir.' },
    retention: {
      'ui:description': 'LGPD (docs/lgpd.md): o relógio do servidor aplica de hora em hora; as estatísticas do dashboard ficam.',
      closedChatsDays: { 'ui:help': 'Mensagens e dados do contato viram anônimos; 0 ou vazio mantém para sempre.' },
      mediaDays: { 'ui:help': 'Apaga antes os arquivos (no máximo o prazo dos chats); 0 ou vazio mantém para sempre.' },
    },
  });
  Object.assign(ui.transferencia as Json, { justifies: { 'ui:help': 'Opções do diálogo de transferência.' } });
  Object.assign(ui.aparencia as Json, {
    statusList: { items: { color: { 'ui:widget': 'color' } }, 'ui:help': 'Status que os agentes escolhem na barra de status.' },
    toastPosition: { 'ui:widget': 'select' },
    // Uploaded through POST /api/upload (images only), kept as its /api/files/ address.
    logoUrl: { 'ui:widget': 'file', 'ui:options': { accept: 'image', preview: true }, 'ui:help': 'PNG ou JPEG; aparece na tela de login.' },
    backgroundUrl: { 'ui:widget': 'file', 'ui:options': { accept: 'image', preview: true }, 'ui:help': 'PNG ou JPEG; fundo da tela de login.' },
  });
  ui.erp = { urls: { 'ui:help': 'O primeiro é o padrão; o proxy só chama estes endereços.' } };
  ui.visoes = {
    api: { 'ui:widget': 'switch', 'ui:help': 'Mostra a tela de API aos administradores.' },
    chatTabs: {
      'ui:help': "Ordem das abas da lista de chats (as não listadas vêm depois, na ordem padrão), rótulo e abas ocultas. Não dá a ninguém uma aba que as permissões não dão; 'Meus' não pode ser oculta.",
      items: { id: { 'ui:widget': 'select' }, hidden: { 'ui:widget': 'switch' } },
    },
  };
  return ui;
})();

type Settings = Record<keyof typeof SETTINGS_GROUPS, Json>;

/** The app configuration → the settings document the form edits. */
export function settingsOf(config: AppConfig): Settings {
  const claims = config.claims ?? {};
  const claimsOf = (group: keyof typeof CLAIM_GROUPS) => Object.fromEntries(Object.keys(CLAIM_GROUPS[group]).map((c) => [c, claimOn(claims, c)]));
  const close = config.closeJustify ?? DEFAULT_CLOSE_RULES;
  return {
    atendimento: { timeZone: settingsTimeZone(config.timeZone), ...claimsOf('atendimento') },
    encerramento: {
      ...claimsOf('encerramento'), justifies: [...(close.justifies ?? [])], reportOnly: close.reportOnly ?? true, nextMaxDate: close.nextMaxDate ?? 5000, obsRules: [...(close.obsRules ?? [])],
      retention: { closedChatsDays: config.retention?.closedChatsDays ?? null, mediaDays: config.retention?.mediaDays ?? null },
    },
    transferencia: { ...claimsOf('transferencia'), justifies: [...(config.transferJustify ?? [])] },
    pesquisas: claimsOf('pesquisas'),
    aparencia: {
      ...claimsOf('aparencia'),
      statusList: (config.statusList ?? []).map((s) => ({ text: s.text, color: s.color })),
      toastPosition: config.toastNotification?.position ?? 'top-right',
      footerName: config.footer?.name ?? null,
      footerLink: config.footer?.link ?? null,
      logoUrl: config.assets?.logoUrl ?? null,
      backgroundUrl: config.assets?.backgroundUrl ?? null,
    },
    erp: { urls: [...(config.erp?.urls ?? [])], queryPath: config.erp?.queryPath ?? null, timeoutMs: config.erp?.timeoutMs ?? null, searchLimit: config.erp?.searchLimit ?? null, mapsKey: config.mapsKey ?? null, quotesUrl: config.quotesUrl ?? null },
    visoes: {
      hiddenViews: [...(config.hiddenViews ?? [])], rootView: config.rootView ?? null, api: Boolean(config.api), hiddenTemplates: [...(config.hiddenTemplates ?? [])],
      chatTabs: chatTabSettings(config.chatTabs).map((t) => ({ id: t.id, label: t.label ?? null, hidden: Boolean(t.hidden) })),
    },
  };
}

/** A validated settings document applied onto the configuration (what the screen does not edit is kept). */
export function applySettings(config: AppConfig, settings: Settings): AppConfig {
  const claims = { ...(config.claims ?? {}) };
  for (const group of Object.keys(CLAIM_GROUPS) as (keyof typeof CLAIM_GROUPS)[]) {
    for (const claim of Object.keys(CLAIM_GROUPS[group])) claims[claim] = Boolean(settings[group]?.[claim]);
  }
  const s = settings as unknown as {
    atendimento: { timeZone?: string };
    encerramento: { justifies?: string[]; reportOnly?: boolean; nextMaxDate?: number; obsRules?: { pattern: string; message: string }[]; retention?: { closedChatsDays?: number | null; mediaDays?: number | null } };
    transferencia: { justifies?: string[] };
    aparencia: { statusList?: { text: string; color: string }[]; toastPosition?: AppConfig['toastNotification']['position']; footerName?: string | null; footerLink?: string | null; logoUrl?: string | null; backgroundUrl?: string | null };
    erp: { urls?: string[]; queryPath?: string | null; timeoutMs?: number | null; searchLimit?: number | null; mapsKey?: string | null; quotesUrl?: string | null };
    visoes: { hiddenViews?: string[]; rootView?: string | null; api?: boolean; hiddenTemplates?: string[]; chatTabs?: { id: ChatTabId; label?: string | null; hidden?: boolean }[] };
  };
  const previousStatus = new Map((config.statusList ?? []).map((x) => [x.text, x]));
  const urls = s.erp.urls ?? [];
  const closedChatsDays = s.encerramento.retention?.closedChatsDays ?? null;
  const mediaDays = s.encerramento.retention?.mediaDays ?? null;
  const chatTabs = chatTabSettings(s.visoes.chatTabs ?? []);
  return {
    ...config,
    claims,
    timeZone: s.atendimento?.timeZone ?? settingsTimeZone(config.timeZone),
    closeJustify: { justifies: s.encerramento.justifies ?? [], obsRules: s.encerramento.obsRules ?? [], reportOnly: s.encerramento.reportOnly ?? true, nextMaxDate: s.encerramento.nextMaxDate ?? 5000 },
    transferJustify: s.transferencia.justifies ?? [],
    statusList: (s.aparencia.statusList ?? []).map((x, index) => ({ text: x.text, color: x.color, icon: previousStatus.get(x.text)?.icon ?? 'circle', index })),
    toastNotification: { position: s.aparencia.toastPosition ?? 'top-right' },
    footer: s.aparencia.footerName ? { name: s.aparencia.footerName, link: s.aparencia.footerLink ?? '' } : null,
    assets: { logoUrl: s.aparencia.logoUrl ?? null, backgroundUrl: s.aparencia.backgroundUrl ?? null },
    erp: urls.length ? { urls, ...(s.erp.queryPath && { queryPath: s.erp.queryPath }), ...(s.erp.timeoutMs && { timeoutMs: s.erp.timeoutMs }), ...(s.erp.searchLimit && { searchLimit: s.erp.searchLimit }) } : null,
    mapsKey: s.erp.mapsKey ?? null,
    quotesUrl: s.erp.quotesUrl ?? null,
    hiddenViews: s.visoes.hiddenViews ?? [],
    rootView: s.visoes.rootView ?? null,
    api: Boolean(s.visoes.api),
    hiddenTemplates: s.visoes.hiddenTemplates ?? [],
    chatTabs: chatTabs.length ? chatTabs : null,
    retention: closedChatsDays === null && mediaDays === null ? null : { closedChatsDays, mediaDays },
  };
}

/**
 * The rules across fields of a settings document that passed the schema, as pt-BR messages on
 * their fields (empty: valid). The server refuses a save with any (400 `validation_failed`).
 */
export function settingsRuleErrors(settings: unknown): { field: string; message: string }[] {
  const s = (settings ?? {}) as { encerramento?: { retention?: { closedChatsDays?: number | null; mediaDays?: number | null } }; visoes?: { chatTabs?: { id?: string; hidden?: boolean }[] } };
  const errors: { field: string; message: string }[] = [];
  const { closedChatsDays, mediaDays } = s.encerramento?.retention ?? {};
  // 0 or empty keeps: the rule binds only when both delete something.
  if (closedChatsDays && mediaDays && mediaDays > closedChatsDays) {
    errors.push({ field: 'encerramento.retention.mediaDays', message: `Os arquivos devem ser apagados no máximo junto com os chats: informe até ${closedChatsDays} dias` });
  }
  const seen = new Set<string>();
  (s.visoes?.chatTabs ?? []).forEach((tab, i) => {
    if (!tab?.id) return;
    const title = CHAT_TABS.find((t) => t.id === tab.id)?.label ?? tab.id;
    if (seen.has(tab.id)) errors.push({ field: `visoes.chatTabs.${i}.id`, message: `A aba '${title}' já está na lista` });
    else if (tab.hidden && UNHIDEABLE_CHAT_TABS.includes(tab.id as ChatTabId)) errors.push({ field: `visoes.chatTabs.${i}.hidden`, message: `A aba '${title}' não pode ser oculta` });
    seen.add(tab.id);
  });
  return errors;
}

/** One entry of the settings audit list (who, when, what changed). */
export interface SettingsAuditEntry {
  id: string;
  at: string;
  userId: string;
  userName: string;
  changes: { field: string; before: unknown; after: unknown }[];
}

/** Dotted paths whose values differ between two settings documents, with both values. */
export function settingsDiff(before: Json, after: Json, prefix = ''): { field: string; before: unknown; after: unknown }[] {
  const out: { field: string; before: unknown; after: unknown }[] = [];
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const a = before?.[key];
    const b = after?.[key];
    const path = prefix ? `${prefix}.${key}` : key;
    const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
    if (isObj(a) && isObj(b)) out.push(...settingsDiff(a as Json, b as Json, path));
    else if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) out.push({ field: path, before: a ?? null, after: b ?? null });
  }
  return out;
}
