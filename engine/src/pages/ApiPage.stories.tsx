import type { Meta, StoryObj } from '@storybook/react';
import { ApiPage, type ApiTokenInfo } from './ApiPage';
import { withShell } from '../stories/StoryShell';
import { adminUser, storyConfig } from '../stories/fixtures';
import { errorAnswer } from '../stories/sessions';
import type { FakeCall, FakeRoutes } from '../stories/fakeApi';

const existing: ApiTokenInfo = {
  id: 'tok-1',
  name: 'api',
  prefix: 'atk_Q2x9Zp',
  urls: ['/api/contacts'],
  methods: ['GET'],
  createdAt: '2026-11-20T13:00:00.000Z',
  lastUsedAt: '2026-11-22T09:30:00.000Z',
  revokedAt: null,
};

/** A small in-memory stand-in for /api/api-tokens: generate replaces the same name, DELETE revokes. */
export function fakeTokenApi(initial: ApiTokenInfo[]): FakeRoutes {
  let tokens = [...initial];
  let n = 1;
  return {
    'GET /api/api-tokens': () => ({ body: { data: tokens } }),
    'POST /api/api-tokens': (call: FakeCall) => {
      const body = call.body as { id: string; urls: string[]; methods: string[] };
      const token = `atk_story${n++}AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abc`;
      const now = '2026-11-23T12:00:00.000Z';
      tokens = tokens.map((t) => (t.name === body.id && !t.revokedAt ? { ...t, revokedAt: now } : t));
      const created = { id: `tok-${n + 1}`, name: body.id, prefix: token.slice(0, 10), urls: body.urls, methods: body.methods, createdAt: now, lastUsedAt: null, revokedAt: null };
      tokens = [created, ...tokens];
      return { status: 201, body: { data: { ...created, token } } };
    },
    'DELETE /api/api-tokens/*': (call: FakeCall) => {
      const id = call.path.split('/').pop()!;
      tokens = tokens.map((t) => (t.id === id ? { ...t, revokedAt: '2026-11-23T12:00:00.000Z' } : t));
      return { body: { data: tokens.find((t) => t.id === id) } };
    },
  };
}

const meta = {
  title: 'Páginas/API',
  component: ApiPage,
  decorators: [withShell],
  args: { origin: 'https://acme.atendimento.app' },
  parameters: { shell: { path: '/api', user: adminUser, config: storyConfig({ api: true }), api: fakeTokenApi([existing]) } },
} satisfies Meta<typeof ApiPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A token already exists: it is not shown again (only its prefix); generating asks first. */
export const Default: Story = {};

/** No token yet. */
export const NoTokens: Story = { parameters: { shell: { api: fakeTokenApi([]) } } };

/** The server refuses the scope: the messages show under the fields. */
export const InvalidScope: Story = {
  parameters: {
    shell: {
      api: {
        ...fakeTokenApi([]),
        'POST /api/api-tokens': errorAnswer(400, 'validation_failed', 'Dados inválidos', [
          { field: 'urls', message: 'Informe as URLs permitidas (caminhos sob /api, até 50).' },
        ]),
      },
    },
  },
};
