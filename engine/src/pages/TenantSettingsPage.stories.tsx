import type { Meta, StoryObj } from '@storybook/react';
import { applySettings, defaultAppConfig, settingsOf, TENANT_SETTINGS_SCHEMA, TENANT_SETTINGS_UI, settingsDiff, type SettingsAuditEntry } from '@atendimento/schemas';
import { TenantSettingsPage } from './TenantSettingsPage';
import { withShell } from '../stories/StoryShell';
import { adminUser, storyConfig } from '../stories/fixtures';
import type { FakeCall, FakeRoutes } from '../stories/fakeApi';

/** An in-memory /api/tenant-settings: saves apply and add an audit entry, as the server does. */
export function fakeSettingsApi(): FakeRoutes {
  let config = defaultAppConfig('acme', 'Acme');
  config.closeJustify = { ...config.closeJustify, justifies: ['Resolvido', 'Sem retorno'] };
  config.retention = { closedChatsDays: 1825, mediaDays: null };
  config.chatTabs = [{ id: 'queuesChats', label: 'Aguardando' }];
  const audit: SettingsAuditEntry[] = [
    { id: 'a1', at: '2026-11-20T13:00:00.000Z', userId: 'u-admin', userName: 'Ana Administradora', changes: [{ field: 'atendimento.publicRegister', before: false, after: true }] },
  ];
  return {
    'GET /api/tenant-settings': () => ({ body: { data: settingsOf(config), schema: TENANT_SETTINGS_SCHEMA, uiSchema: TENANT_SETTINGS_UI } }),
    'GET /api/tenant-settings/audit': () => ({ body: { data: audit } }),
    'PUT /api/tenant-settings': (call: FakeCall) => {
      const before = settingsOf(config);
      config = applySettings(config, call.body as ReturnType<typeof settingsOf>);
      const after = settingsOf(config);
      audit.unshift({ id: `a${audit.length + 1}`, at: '2026-11-24T10:00:00.000Z', userId: 'u-admin', userName: 'Ana Administradora', changes: settingsDiff(before, after) });
      return { body: { data: after } };
    },
  };
}

const meta = {
  title: 'Páginas/Configurações',
  component: TenantSettingsPage,
  decorators: [withShell],
  parameters: { shell: { path: '/settings', user: adminUser, config: storyConfig(), api: fakeSettingsApi() } },
} satisfies Meta<typeof TenantSettingsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The groups, each claim with its help, the justification lists, and the audit list. */
export const Default: Story = {};
