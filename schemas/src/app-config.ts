import type { AppConfig } from './domain';
import { DEFAULT_CLOSE_RULES, DEFAULT_TIME_ZONE } from './chat/closing';

/** The configuration a new tenant starts with; the seed's defaults where it names them. */
export function defaultAppConfig(tenantId: string, name: string): AppConfig {
  return {
    tenantId,
    name,
    claims: {},
    statusList: [
      { text: 'online', color: '#01b882', icon: 'check_circle', index: 0 },
      { text: 'ausente', color: '#f2b000', icon: 'schedule', index: 1 },
      { text: 'offline', color: '#9e9e9e', icon: 'cancel', index: 2 },
    ],
    hiddenViews: [],
    rootView: null,
    toastNotification: { position: 'top-right' },
    closeJustify: { ...DEFAULT_CLOSE_RULES },
    transferJustify: [],
    chatTabs: null,
    demoDatabase: false,
    footer: null,
    assets: { logoUrl: null, backgroundUrl: null },
    protheus: null,
    mapsKey: null,
    api: false,
    hiddenTemplates: [],
    erp: null,
    timeZone: DEFAULT_TIME_ZONE,
  };
}
