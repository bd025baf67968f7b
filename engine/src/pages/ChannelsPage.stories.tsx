import type { Meta, StoryObj } from '@storybook/react';
import { CHANNEL_SETTINGS_FORMS, CHANNEL_TABLE, type ChannelAdminView } from '@atendimento/schemas';
import { ChannelsPage, type ChannelTypeOption } from './ChannelsPage';
import { withShell } from '../stories/StoryShell';
import { adminUser, storyConfig } from '../stories/fixtures';
import { errorAnswer } from '../stories/sessions';
import type { FakeCall, FakeRoutes } from '../stories/fakeApi';

const ORIGIN = 'https://acme.atendimento.app';

const types: ChannelTypeOption[] = (['meta', 'dialog360', 'zApi', 'webchat', 'mail'] as const).map((type) => ({ type, label: CHANNEL_TABLE[type].label, form: CHANNEL_SETTINGS_FORMS[type]! }));

const meta0: ChannelAdminView = {
  id: 'ch-meta', type: 'meta', displayName: 'WhatsApp Comercial', departmentId: 'comercial', color: '#25D366', menuOrder: 1, hide: false, active: true, phoneNumber: null, claims: { closeChat: true },
  settings: { baseUrl: 'https://graph.facebook.com', apiVersion: 'v21.0', phoneNumberId: '1098', businessAccountId: '2087', verifyToken: 'a1b2c3d4e5' },
  secretsSet: { accessToken: true, appSecret: true },
  webhookUrl: `${ORIGIN}/api/webhooks/whatsapp/ch-meta`,
};
const webchat0: ChannelAdminView = {
  id: 'ch-site', type: 'webchat', displayName: 'Chat do site', departmentId: 'comercial', color: '#1976D2', menuOrder: 0, hide: false, active: true, phoneNumber: null, claims: {},
  webchat: { title: 'Fale conosco', welcome: 'Olá! Em que podemos ajudar?', color: '#1976D2', allowedOrigins: [] },
  settings: {}, secretsSet: {}, webhookUrl: null,
  snippet: `<script src="${ORIGIN}/api/webchat/ch-site/widget.js" async></script>`,
};

/** An in-memory /api/admin/channels: saves keep secrets as flags only, as the server does. */
export function fakeChannelsApi(initial: ChannelAdminView[]): FakeRoutes {
  let channels = [...initial];
  let n = 1;
  const viewOf = (id: string, body: Record<string, any>, before?: ChannelAdminView): ChannelAdminView => {
    const type = before?.type ?? body.type;
    const form = types.find((x) => x.type === type)!.form;
    const settings: Record<string, unknown> = { ...(before?.settings ?? {}) };
    const secretsSet: Record<string, boolean> = { ...(before?.secretsSet ?? {}) };
    for (const field of form.fields) {
      const value = body.settings?.[field.path];
      if (field.secret) secretsSet[field.path] = secretsSet[field.path] || Boolean(value);
      else if (value !== undefined && value !== '') settings[field.path] = value;
      else if (field.generated && !settings[field.path]) settings[field.path] = 'token-gerado-123';
    }
    return {
      id, type, displayName: body.displayName, departmentId: body.departmentId, color: body.color, menuOrder: body.menuOrder, hide: body.hide, active: body.active, phoneNumber: null, claims: body.claims,
      ...(body.webchat && { webchat: body.webchat }), settings, secretsSet,
      webhookUrl: form.noWebhook ? null : `${ORIGIN}/api/webhooks/whatsapp/${id}${form.secretInUrl ? '/{segredo}' : ''}`,
      ...(type === 'webchat' && { snippet: `<script src="${ORIGIN}/api/webchat/${id}/widget.js" async></script>` }),
    };
  };
  return {
    'GET /api/admin/channels': () => ({ body: { data: channels, types, departments: [{ id: 'comercial', displayName: 'Comercial' }, { id: 'suporte', displayName: 'Suporte Técnico' }] } }),
    'POST /api/admin/channels/*': (call: FakeCall) => ({ body: { data: call.path.includes('ch-meta') ? { ok: true, message: 'Conexão bem-sucedida: o provedor respondeu. (Empresa de Teste · 5511999990000)' } : { ok: false, message: 'O provedor recusou as credenciais (token ou chave inválidos).' } } }),
    'POST /api/admin/channels': (call: FakeCall) => {
      const created = viewOf(`ch-novo-${n++}`, call.body as Record<string, any>);
      channels = [...channels, created];
      return { status: 201, body: { data: created } };
    },
    'PUT /api/admin/channels/*': (call: FakeCall) => {
      const id = call.path.split('/').pop()!;
      const updated = viewOf(id, call.body as Record<string, any>, channels.find((c) => c.id === id));
      channels = channels.map((c) => (c.id === id ? updated : c));
      return { body: { data: updated } };
    },
  };
}

const meta = {
  title: 'Páginas/Canais',
  component: ChannelsPage,
  decorators: [withShell],
  args: { live: false },
  parameters: { shell: { path: '/channels', user: adminUser, config: storyConfig(), api: fakeChannelsApi([webchat0, meta0]) } },
} satisfies Meta<typeof ChannelsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A web chat and a Meta channel: secrets shown only as "Definido". */
export const Default: Story = {};

/** No channel yet. */
export const Empty: Story = { parameters: { shell: { api: fakeChannelsApi([]) } } };

/** The server refuses a save: the messages land under the fields. */
export const InvalidSave: Story = {
  parameters: {
    shell: {
      api: {
        ...fakeChannelsApi([]),
        'POST /api/admin/channels': errorAnswer(400, 'validation_failed', 'Dados inválidos', [
          { field: 'settings.phoneNumberId', message: 'Informe ID do número de telefone' },
        ]),
      },
    },
  },
};
