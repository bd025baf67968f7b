import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

/**
 * A local OpenID provider standing in for Google (docs/auth.md "Google"), for tests and
 * `npm start`: `oidc-provider` with its development sign-in pages, where any e-mail typed as
 * the login signs in. The ID token carries that e-mail, verified unless it is listed in
 * `unverified` (or starts with 'naoverificado'), as Google marks addresses it has not checked.
 */
export interface LocalGoogle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startLocalGoogle(options: { redirectUris: string[]; port?: number; unverified?: string[] }): Promise<LocalGoogle> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'atendimento-local';
  const clientSecret = randomBytes(24).toString('hex');
  const unverified = new Set((options.unverified ?? []).map((e) => e.toLowerCase()));
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    async findAccount(_ctx: unknown, id: string) {
      const email = id.trim().toLowerCase();
      return {
        accountId: email,
        async claims() {
          return { sub: email, email, email_verified: !unverified.has(email) && !email.startsWith('naoverificado'), name: email.split('@')[0] };
        },
      };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
