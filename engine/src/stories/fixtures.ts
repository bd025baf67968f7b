import { defaultAppConfig, type AppConfig, type User } from '@atendimento/schemas';

/** Story and spec data only; the product reads the real configuration and user from the API. */
export function storyConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...defaultAppConfig('acme', 'Acme Atendimento'),
    claims: { publicRegister: true, allowFollowMe: true, queues: true },
    ...overrides,
  };
}

export function storyUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-agente',
    type: 'agent',
    displayName: 'Amanda Agente',
    email: 'agente@acme.test',
    photoUrl: null,
    claims: { allowFollowMe: true },
    team: [],
    status: 'online',
    erpUserId: null,
    updatePass: false,
    active: true,
    whatsapp: null,
    lifeControl: { createdAt: '2026-11-01T12:00:00.000Z', deletedAt: null },
    ...overrides,
  };
}

export const adminUser = storyUser({ id: 'u-admin', displayName: 'Ana Administradora', email: 'admin@acme.test', claims: { admin: true } });
export const supervisorUser = storyUser({ id: 'u-supervisor', displayName: 'Sérgio Supervisor', email: 'supervisor@acme.test', claims: { dashboard: true } });
export const agentUser = storyUser();

/** A 640×480 picture (inline SVG) standing in for the photo the user picked. */
export const SAMPLE_PHOTO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#1976D2"/><stop offset="1" stop-color="#01b882"/></linearGradient></defs><rect width="640" height="480" fill="url(#g)"/><circle cx="320" cy="200" r="90" fill="#ffe0b2"/><rect x="190" y="300" width="260" height="180" rx="120" fill="#ffe0b2"/></svg>',
  );
