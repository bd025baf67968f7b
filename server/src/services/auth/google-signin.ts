import * as oidc from 'openid-client';
import { messages } from '@atendimento/schemas';
import { forbidden } from '../../errors';
import { open, seal } from '../../db/secret-box';

/**
 * Google sign-in (docs/auth.md "Google"): the OpenID Connect authorization-code flow with PKCE,
 * through `openid-client`. The browser opens `/api/auth/google/start` in a popup; we answer a
 * redirect to the provider and keep the PKCE verifier, state and nonce in a short-lived sealed
 * cookie (AES-GCM, secret-box.ts: no server memory, so any process can finish the flow); the
 * provider sends the popup back to `/api/auth/google/callback`, where the code is exchanged and
 * the ID token checked (signature, issuer, audience, nonce) before its claims are used.
 */
export interface GoogleClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

interface FlowState {
  verifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
  /** Unix ms: a flow older than 10 minutes is refused. */
  at: number;
}

const FLOW_TTL_MS = 10 * 60_000;

type Settings = { clientId: string; clientSecret: string; issuer: string } | null;

export function createGoogleSignIn(settingsOf: () => Settings) {
  let discovered: Promise<oidc.Configuration> | null = null;
  let discoveredFor = '';
  function configuration(): Promise<oidc.Configuration> {
    const settings = settingsOf();
    if (!settings) throw forbidden('google_disabled', messages.auth.googleLoginDisabled);
    // Read per call: a test (or the demo) may point the client at its local provider after start.
    const key = `${settings.issuer}|${settings.clientId}|${settings.clientSecret}`;
    if (!discovered || discoveredFor !== key) {
      discoveredFor = key;
      const issuer = new URL(settings.issuer);
      // A plain-http issuer is only the local stand-in of tests and the demo.
      const insecure = issuer.protocol === 'http:';
      discovered = oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
      discovered.catch(() => (discovered = null));
    }
    return discovered;
  }

  return {
    enabled: () => settingsOf() !== null,

    /** The provider's authorization URL and the sealed cookie value to keep until the callback. */
    async start(redirectUri: string): Promise<{ url: string; cookie: string }> {
      const config = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const flow: FlowState = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce(), redirectUri, at: Date.now() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, cookie: seal(JSON.stringify(flow)) };
    },

    /** Exchanges the code of `callbackUrl` and answers the verified ID token's claims. */
    async finish(callbackUrl: URL, cookie: string | undefined): Promise<GoogleClaims> {
      let flow: FlowState;
      try {
        flow = JSON.parse(open(cookie ?? '')) as FlowState;
      } catch {
        throw forbidden('google_flow_invalid', messages.auth.googleFlowInvalid);
      }
      if (!flow?.verifier || Date.now() - flow.at > FLOW_TTL_MS) throw forbidden('google_flow_invalid', messages.auth.googleFlowInvalid);
      const config = await configuration();
      // The redirect URI of the token request must be the one sent to the provider.
      const current = new URL(flow.redirectUri);
      current.search = callbackUrl.search;
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
      const idClaims = tokens.claims();
      if (!idClaims) throw forbidden('google_flow_invalid', messages.auth.googleFlowInvalid);
      // Google puts the e-mail in the ID token; a provider that keeps it for userinfo is asked
      // there (the answer's sub must be the ID token's, which fetchUserInfo checks).
      const claims: Record<string, unknown> = typeof idClaims.email === 'string' ? idClaims : { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), sub: idClaims.sub };
      return {
        sub: String(claims.sub),
        email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    },
  };
}

export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
