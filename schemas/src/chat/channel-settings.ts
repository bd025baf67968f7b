import { adapterOf, channelTypes, CHANNEL_TABLE, type ChannelType } from './channel';

/**
 * What the channels screen asks per adapter kind (docs/channels.md "The channels screen"):
 * the provider settings an admin types, which of them are secrets (sealed at rest, write-only:
 * answers only say whether each is set), and the JSON Schema the server validates a save with.
 *
 * To let admins create a new provider's channels: add its adapter kind here with its fields.
 */
export interface ChannelSettingField {
  /** Path inside `data.provider` ('imap.password' for nested settings). */
  path: string;
  label: string;
  /** One-line pt-BR help under the input. */
  help?: string;
  secret?: boolean;
  required?: boolean;
  kind?: 'text' | 'number' | 'boolean';
  /** Filled by the server when left empty (Meta's verify token). */
  generated?: boolean;
  /** Value a new channel starts with. */
  default?: string | number | boolean;
}

export interface ChannelSettingsForm {
  fields: ChannelSettingField[];
  /** The provider puts the webhook secret in the URL (Z-API, 360dialog's alternative). */
  secretInUrl?: boolean;
  /** No webhook (our own web chat; mail is read over IMAP). */
  noWebhook?: boolean;
}

/**
 * Settings that authenticate inbound webhooks: replacing one keeps the old value accepted for a
 * grace period (in-flight and retried deliveries), and the channel screen says so.
 */
export const WEBHOOK_SECRET_FIELDS: readonly string[] = ['appSecret', 'webhookSecret', 'verifyToken'];

const baseUrl = (value: string): ChannelSettingField => ({ path: 'baseUrl', label: 'URL da API', help: 'Endereço da API do provedor (mude só para um servidor de testes).', required: true, default: value });

export const CHANNEL_SETTINGS_FORMS: Record<string, ChannelSettingsForm> = {
  meta: {
    fields: [
      baseUrl('https://graph.facebook.com'),
      { path: 'apiVersion', label: 'Versão da API', default: 'v21.0', required: true },
      { path: 'phoneNumberId', label: 'ID do número de telefone', required: true, help: 'Phone number ID do WhatsApp Manager.' },
      { path: 'businessAccountId', label: 'ID da conta do WhatsApp Business (WABA)', required: true },
      { path: 'accessToken', label: 'Token de acesso', secret: true, required: true, help: 'Token permanente do usuário do sistema.' },
      { path: 'appSecret', label: 'Chave secreta do app', secret: true, required: true, help: 'Assina os webhooks (X-Hub-Signature-256).' },
      { path: 'verifyToken', label: 'Token de verificação do webhook', generated: true, help: 'Cole no painel da Meta junto com a URL do webhook.' },
    ],
  },
  dialog360: {
    fields: [
      baseUrl('https://waba-v2.360dialog.io'),
      { path: 'apiKey', label: 'Chave da API (D360-API-KEY)', secret: true, required: true },
      { path: 'webhookSecret', label: 'Segredo do webhook', secret: true, required: true, help: 'Enviado pela 360dialog no cabeçalho abaixo.' },
      { path: 'webhookSecretHeader', label: 'Cabeçalho do segredo', default: 'x-webhook-secret' },
    ],
  },
  zApi: {
    secretInUrl: true,
    fields: [
      baseUrl('https://api.z-api.io'),
      { path: 'instanceId', label: 'Instância', required: true },
      { path: 'instanceToken', label: 'Token da instância', secret: true, required: true },
      { path: 'clientToken', label: 'Client-Token da conta', secret: true, required: true },
      { path: 'webhookSecret', label: 'Segredo do webhook', secret: true, required: true, help: 'Vai no fim da URL do webhook configurada na Z-API.' },
    ],
  },
  webchat: { noWebhook: true, fields: [] },
  mail: {
    noWebhook: true,
    fields: [
      { path: 'fromAddress', label: 'E-mail de envio', required: true },
      { path: 'fromName', label: 'Nome de envio' },
      { path: 'imap.host', label: 'Servidor IMAP', required: true },
      { path: 'imap.port', label: 'Porta IMAP', kind: 'number', default: 993, required: true },
      { path: 'imap.secure', label: 'IMAP com TLS', kind: 'boolean', default: true },
      { path: 'imap.user', label: 'Usuário IMAP', required: true },
      { path: 'imap.password', label: 'Senha IMAP', secret: true, required: true },
      { path: 'imap.mailbox', label: 'Pasta de entrada', default: 'INBOX' },
      { path: 'smtp.host', label: 'Servidor SMTP', required: true },
      { path: 'smtp.port', label: 'Porta SMTP', kind: 'number', default: 465, required: true },
      { path: 'smtp.secure', label: 'SMTP com TLS', kind: 'boolean', default: true },
      { path: 'smtp.user', label: 'Usuário SMTP', required: true },
      { path: 'smtp.password', label: 'Senha SMTP', secret: true, required: true },
    ],
  },
};

/** The form of a channel type, or null when admins cannot configure it here. */
export function settingsFormOf(type: string): ChannelSettingsForm | null {
  if (!(type in CHANNEL_TABLE)) return null;
  const kind = adapterOf(type as ChannelType);
  return (kind && CHANNEL_SETTINGS_FORMS[kind]) || null;
}

/** Types the screen offers in 'Novo canal': one per adapter kind with a form (the table's first). */
export function configurableChannelTypes(): ChannelType[] {
  const seen = new Set<string>();
  return (channelTypes() as ChannelType[]).filter((type) => {
    const kind = adapterOf(type);
    if (!kind || !CHANNEL_SETTINGS_FORMS[kind] || seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

/** Paths of a type's secret settings (sealed at rest, never answered). */
export function secretPathsOf(type: string): string[] {
  return (settingsFormOf(type)?.fields ?? []).filter((f) => f.secret).map((f) => f.path);
}

/** Every secret path of every form: a store can seal them without knowing the type. */
export const ALL_SECRET_PATHS: readonly string[] = [...new Set(Object.values(CHANNEL_SETTINGS_FORMS).flatMap((f) => f.fields.filter((x) => x.secret).map((x) => x.path)))];

/** Reads a dotted path. */
export function settingAt(settings: Record<string, unknown> | null | undefined, path: string): unknown {
  let node: unknown = settings;
  for (const key of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** Writes a dotted path, creating the objects on the way. */
export function setSettingAt(settings: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = settings;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** What the admin sends to create or change a channel (POST/PUT /api/channels-admin). */
export interface ChannelAdminInput {
  type?: string;
  displayName: string;
  departmentId: string | null;
  color?: string | null;
  menuOrder?: number;
  hide?: boolean;
  active?: boolean;
  phoneNumber?: string | null;
  claims?: { closeChat?: boolean; closeChatNoMessage?: boolean; askResearch?: boolean };
  webchat?: { title?: string; welcome?: string; color?: string; allowedOrigins?: string[] };
  /** Non-secret settings as values; secrets as new values (empty/absent = keep the stored one). */
  settings?: Record<string, unknown>;
}

/** A channel as the channels screen sees it: secrets only as "set or not". */
export interface ChannelAdminView {
  id: string;
  type: string;
  displayName: string;
  departmentId: string | null;
  color: string | null;
  menuOrder: number;
  hide: boolean;
  active: boolean;
  phoneNumber: string | null;
  claims: { closeChat?: boolean; closeChatNoMessage?: boolean; askResearch?: boolean };
  webchat?: { title?: string; welcome?: string; color?: string; allowedOrigins?: string[] };
  settings: Record<string, unknown>;
  secretsSet: Record<string, boolean>;
  /** Where the provider must post (placeholder `{segredo}` where the secret goes), null without webhook. */
  webhookUrl: string | null;
  /** Web chat: the snippet to paste on the customer's site. */
  snippet?: string;
}

const COLOR = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$';

/** JSON Schema of the common part of a save (the settings are checked field by field). */
export const CHANNEL_ADMIN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['displayName'],
  properties: {
    type: { type: 'string', maxLength: 40 },
    displayName: { type: 'string', minLength: 1, maxLength: 120, errorMessage: 'Informe o nome do canal' },
    departmentId: { type: ['string', 'null'], maxLength: 64, errorMessage: 'Departamento inválido' },
    color: { type: ['string', 'null'], pattern: COLOR, errorMessage: 'Cor inválida (use #RRGGBB)' },
    menuOrder: { type: 'integer', minimum: 0, maximum: 10000, errorMessage: 'Ordem no menu deve ser um número entre 0 e 10000' },
    hide: { type: 'boolean' },
    active: { type: 'boolean' },
    phoneNumber: { type: ['string', 'null'], maxLength: 30, errorMessage: 'Telefone inválido' },
    claims: {
      type: 'object',
      additionalProperties: false,
      properties: { closeChat: { type: 'boolean' }, closeChatNoMessage: { type: 'boolean' }, askResearch: { type: 'boolean' } },
    },
    webchat: {
      type: 'object',
      additionalProperties: false,
      properties: {
        title: { type: 'string', maxLength: 80 },
        welcome: { type: 'string', maxLength: 500 },
        color: { type: 'string', pattern: COLOR, errorMessage: 'Cor inválida (use #RRGGBB)' },
        allowedOrigins: { type: 'array', maxItems: 50, items: { type: 'string', pattern: '^https?://[^/\\s]+$', errorMessage: 'Origem inválida: use https://site.com.br, sem caminho' } },
      },
    },
    settings: { type: 'object', maxProperties: 40 },
  },
} as const;

/** pt-BR labels of the channel claims the screen switches. */
export const CHANNEL_CLAIM_LABELS = {
  closeChat: 'Permitir encerrar o atendimento',
  closeChatNoMessage: 'Permitir encerrar sem mensagem',
  askResearch: 'Enviar pesquisa de satisfação ao encerrar',
} as const;
