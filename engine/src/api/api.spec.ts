import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, ApiError } from './api';
import { session } from './session';
import { installFakeFetch, type FakeCall } from '../stories/fakeApi';
import { agentUser } from '../stories/fixtures';
import { clearToasts, currentToasts } from '../ui/toast';

let restore = () => undefined as void;
afterEach(() => {
  restore();
  session.clear();
  clearToasts();
});
beforeEach(() => {
  clearToasts();
  session.set({ accessToken: 'old', user: agentUser });
});

function fake(routes: Parameters<typeof installFakeFetch>[0]) {
  const installed = installFakeFetch(routes);
  restore = installed.restore;
  return installed.calls;
}

/** Answers 401 unless the bearer token is `token`. */
const needs = (token: string) => (call: FakeCall) =>
  call.headers.authorization === `Bearer ${token}` ? { body: { data: 'ok' } } : { status: 401, body: { error: 'token_expired', errorMessage: 'Sessão expirada. Entre novamente.' } };

const refreshTo = (token: string) => ({ body: { data: { accessToken: token, expiresIn: 900, user: agentUser } } });
const toasts = () => currentToasts().map((toast) => `${toast.severity}: ${toast.message}`);

describe('api client', () => {
  it('refreshes the token once on 401 and retries with the new one', async () => {
    const calls = fake({ 'GET /api/thing': needs('new'), 'POST /api/auth/refresh': refreshTo('new') });
    await expect(api('/api/thing')).resolves.toEqual({ data: 'ok' });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers.authorization ?? ''}`.trim())).toEqual([
      'GET /api/thing Bearer old',
      'POST /api/auth/refresh',
      'GET /api/thing Bearer new',
    ]);
    expect(session.token).toBe('new');
    expect(toasts()).toEqual([]);
  });

  it("a page without a session asks for a refresh only when the server's hint cookie says one exists", async () => {
    session.clear();
    const calls = fake({ 'POST /api/auth/refresh': refreshTo('new') });
    expect(await session.refresh()).toBe(false);
    expect(calls).toEqual([]);
    document.cookie = 'atendimento_sessao=1; path=/';
    try {
      expect(await session.refresh()).toBe(true);
      expect(calls.map((c) => c.path)).toEqual(['/api/auth/refresh']);
      expect(session.token).toBe('new');
    } finally {
      document.cookie = 'atendimento_sessao=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    }
  });

  it('shares one refresh between requests that fail together', async () => {
    const calls = fake({ 'GET /api/thing': needs('new'), 'POST /api/auth/refresh': refreshTo('new') });
    await Promise.all([api('/api/thing'), api('/api/thing'), api('/api/thing')]);
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1);
  });

  it('does not refresh twice when the retry is refused again', async () => {
    const calls = fake({ 'GET /api/thing': needs('never'), 'POST /api/auth/refresh': refreshTo('new') });
    await expect(api('/api/thing')).rejects.toMatchObject({ status: 401, message: 'Sessão expirada. Entre novamente.' });
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1);
    expect(calls.filter((c) => c.path === '/api/thing')).toHaveLength(2);
  });

  it('ends the session when the refresh is refused', async () => {
    fake({ 'GET /api/thing': needs('new') });
    await expect(api('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(session.user).toBeNull();
  });

  it("toasts the server's errorMessage as an error", async () => {
    fake({ 'GET /api/thing': { status: 403, body: { error: 'forbidden', errorMessage: 'Você não tem permissão para acessar este recurso.' } } });
    await expect(api('/api/thing')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(toasts()).toEqual(['error: Você não tem permissão para acessar este recurso.']);
  });

  it('toasts the error code when there is no errorMessage', async () => {
    fake({ 'GET /api/thing': { status: 422, body: { error: 'Telefone inválido' } } });
    await expect(api('/api/thing')).rejects.toThrow('Telefone inválido');
    expect(toasts()).toEqual(['error: Telefone inválido']);
  });

  it('stays quiet when the caller shows the error itself (notify: false)', async () => {
    fake({ 'GET /api/thing': { status: 400, body: { error: 'bad', errorMessage: 'Dados inválidos' } } });
    await expect(api('/api/thing', { notify: false })).rejects.toThrow('Dados inválidos');
    expect(toasts()).toEqual([]);
  });

  it("says 'Não foi possivel contactar o sistema' when the network fails", async () => {
    fake({ 'GET /api/thing': () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(api('/api/thing')).rejects.toMatchObject({ status: 0 });
    expect(toasts()).toEqual(['error: Não foi possivel contactar o sistema']);
  });

  it('rejects a cancelled request with its abort reason and no toast', async () => {
    fake({ 'GET /api/thing': () => new Promise(() => undefined) });
    const controller = new AbortController();
    const pending = api('/api/thing', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(toasts()).toEqual([]);
  });
});
