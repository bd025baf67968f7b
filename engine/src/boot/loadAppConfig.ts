import type { AppConfig } from '@atendimento/schemas';

/** Start-up attempts before the error screen (seed 000 §2 and §9: up to 5). */
const CONFIG_ATTEMPTS = 5;

export type ConfigResult = { kind: 'ready'; config: AppConfig } | { kind: 'blocked' } | { kind: 'unreachable' };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fetches the tenant configuration (GET /api/master/tenants/current/appConfig, reading
 * `data`): 403 means the tenant is inactive ('Acesso Desabilitado.'); anything else that
 * fails is retried with a growing pause, up to 5 attempts, then 'unreachable'.
 */
export async function loadAppConfig(options: { fetch?: typeof fetch; attempts?: number; delayMs?: number } = {}): Promise<ConfigResult> {
  const doFetch = options.fetch ?? fetch;
  const attempts = options.attempts ?? CONFIG_ATTEMPTS;
  const delayMs = options.delayMs ?? 500;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await doFetch('/api/master/tenants/current/appConfig', { headers: { Accept: 'application/json', 'front-request': 'true' } });
      if (response.status === 403) return { kind: 'blocked' };
      if (response.ok) {
        const body = (await response.json()) as { data?: AppConfig };
        if (body?.data) return { kind: 'ready', config: body.data };
      }
    } catch (error) {
      console.warn(`appConfig attempt ${attempt} failed`, error);
    }
    if (attempt < attempts) await wait(delayMs * 2 ** (attempt - 1));
  }
  return { kind: 'unreachable' };
}
