import type { Context } from 'koa';
import { hasTenantClaim, messages, SESSION_HINT_COOKIE } from '@atendimento/schemas';
import { AppError, badRequest, validationError } from '../../../errors';
import { publicUser } from '../../../db/repositories/user-repository';
import type { IssuedSession, RequestMeta } from '../../../services/auth/auth-service';
import type { Auth } from '../../../services/auth';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { objectBody } from '../../request';

const REFRESH_COOKIE = 'rt';
const COOKIE_PATH = '/api/auth';

function meta(ctx: Context): RequestMeta {
  return { ip: ctx.ip || null, userAgent: ctx.get('User-Agent') || null };
}

/** Answers a new session: access token in JSON, refresh token in an httpOnly cookie. */
function sendSession(ctx: Context, issued: IssuedSession, status = 200): void {
  ctx.cookies.set(REFRESH_COOKIE, issued.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: COOKIE_PATH,
    expires: issued.refreshExpiresAt,
    overwrite: true,
  });
  // Beside it, the page's hint that a session exists (schemas/src/session-hint.ts).
  ctx.cookies.set(SESSION_HINT_COOKIE, '1', { httpOnly: false, sameSite: 'strict', secure: ctx.secure, path: '/', expires: issued.refreshExpiresAt, overwrite: true });
  ctx.status = status;
  ctx.body = { data: issued.session };
}

const GOOGLE_FLOW_COOKIE = 'gflow';
const GOOGLE_PATH = '/api/auth/google';

/**
 * The page the Google popup ends on: it hands the outcome to the opener (same origin only)
 * and closes. Its script is a file of ours (the CSP allows no inline script); the outcome
 * travels in a data attribute, escaped.
 */
function googleDonePage(ctx: Context, outcome: { ok: boolean; message?: string }): void {
  const json = JSON.stringify({ type: 'google-signin', ...outcome }).replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;');
  const text = (outcome.message ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;');
  ctx.set('Content-Security-Policy', "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'");
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Entrar com Google</title></head><body><p id="result" data-result='${json}'>${text}</p><script src="${GOOGLE_PATH}/done.js"></script></body></html>`;
}

const GOOGLE_DONE_JS = `(function () {
  var data = JSON.parse(document.getElementById('result').getAttribute('data-result'));
  if (window.opener) { window.opener.postMessage(data, location.origin); window.close(); }
})();`;

function clearCookie(ctx: Context): void {
  ctx.cookies.set(REFRESH_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: COOKIE_PATH, expires: new Date(0), overwrite: true });
  ctx.cookies.set(SESSION_HINT_COOKIE, '', { httpOnly: false, sameSite: 'strict', path: '/', expires: new Date(0), overwrite: true });
}

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47];
const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** Sign-in, sign-up, refresh, sign-out, e-mailed links, anonymous access and the profile. */
export function registerAuthRoutes(api: ApiRegistry, domain: Auth): void {
  const { service: auth, blobs } = domain;
  api.add({
    method: 'POST',
    path: '/api/auth/login',
    access: access.public,
    handler: async (ctx) => sendSession(ctx, await auth.signIn(ctx.state.tenant, objectBody(ctx), meta(ctx))),
  });

  // Google sign-in (docs/auth.md "Google"): a popup runs the authorization-code flow with PKCE.
  api.add({
    method: 'GET',
    path: `${GOOGLE_PATH}/start`,
    access: access.public,
    handler: async (ctx) => {
      if (!hasTenantClaim(ctx.state.tenant.appConfig, 'googleSignIn') || !domain.google.enabled()) {
        return googleDonePage(ctx, { ok: false, message: messages.auth.googleLoginDisabled });
      }
      const { url, cookie } = await domain.google.start(`${ctx.protocol}://${ctx.host}${GOOGLE_PATH}/callback`);
      // Lax: the provider brings the popup back with a top-level GET from its own site.
      ctx.cookies.set(GOOGLE_FLOW_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: GOOGLE_PATH, maxAge: 10 * 60_000, overwrite: true });
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(url);
    },
  });
  api.add({
    method: 'GET',
    path: `${GOOGLE_PATH}/callback`,
    access: access.public,
    handler: async (ctx) => {
      const cookie = ctx.cookies.get(GOOGLE_FLOW_COOKIE);
      ctx.cookies.set(GOOGLE_FLOW_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: GOOGLE_PATH, expires: new Date(0), overwrite: true });
      try {
        if (!hasTenantClaim(ctx.state.tenant.appConfig, 'googleSignIn')) throw new AppError(403, 'google_disabled', messages.auth.googleLoginDisabled);
        const google = await domain.google.finish(new URL(ctx.href), cookie);
        const issued = await auth.signInWithGoogle(ctx.state.tenant, google, meta(ctx));
        sendSession(ctx, issued);
        googleDonePage(ctx, { ok: true });
      } catch (error) {
        // The provider's own refusals (state, code, user cancelled) are one message; ours say why.
        googleDonePage(ctx, { ok: false, message: error instanceof AppError ? error.errorMessage : messages.auth.googleFlowInvalid });
      }
    },
  });
  api.add({
    method: 'GET',
    path: `${GOOGLE_PATH}/done.js`,
    access: access.public,
    handler: (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = GOOGLE_DONE_JS;
    },
  });

  api.add({
    method: 'POST',
    path: '/api/users',
    access: access.public,
    handler: async (ctx) => sendSession(ctx, await auth.signUp(ctx.state.tenant, objectBody(ctx), meta(ctx)), 201),
  });

  api.add({
    method: 'POST',
    path: '/api/auth/refresh',
    access: access.public,
    handler: async (ctx) => {
      try {
        sendSession(ctx, await auth.refresh(ctx.state.tenant, ctx.cookies.get(REFRESH_COOKIE), meta(ctx)));
      } catch (error) {
        clearCookie(ctx);
        throw error;
      }
    },
  });

  api.add({
    method: 'POST',
    path: '/api/auth/logout',
    access: access.public,
    handler: async (ctx) => {
      await auth.signOut(ctx.state.tenant, ctx.state.principal, ctx.cookies.get(REFRESH_COOKIE));
      clearCookie(ctx);
      ctx.status = 204;
    },
  });

  api.add({
    method: 'POST',
    path: '/api/auth/password-recovery',
    access: access.public,
    handler: async (ctx) => {
      await auth.requestLink(ctx.state.tenant, objectBody(ctx), 'reset', meta(ctx));
      ctx.body = { data: { message: messages.auth.recoverySent } };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/auth/email-link',
    access: access.public,
    handler: async (ctx) => {
      await auth.requestLink(ctx.state.tenant, objectBody(ctx), 'signin', meta(ctx));
      ctx.body = { data: { message: messages.auth.accessEmailSent } };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/auth/email-link/complete',
    access: access.public,
    handler: async (ctx) => sendSession(ctx, await auth.completeLink(ctx.state.tenant, objectBody(ctx), meta(ctx))),
  });

  api.add({
    method: 'POST',
    path: '/api/auth/anonymous',
    access: access.public,
    handler: async (ctx) => {
      ctx.body = { data: await auth.anonymous(ctx.state.tenant, objectBody(ctx)) };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/auth/me',
    access: access.user,
    handler: (ctx) => {
      const principal = userOf(ctx);
      ctx.body = { data: publicUser(principal.user, { agentOf: principal.agentOf, supervisorOf: principal.supervisorOf }) };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/profile',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await auth.updateProfile(ctx.state.tenant, userOf(ctx), objectBody(ctx), meta(ctx)) };
    },
  });

  // The avatar arrives already cropped to 512x512 JPEG by the browser (seed 002 §5).
  api.add({
    method: 'POST',
    path: '/api/profile/photo',
    access: access.user,
    handler: async (ctx: AppContext) => {
      const { data, mimeType } = objectBody(ctx);
      if (typeof data !== 'string' || (mimeType !== 'image/jpeg' && mimeType !== 'image/png')) {
        throw validationError([{ field: 'photoBase64', message: messages.validation.invalidValue }]);
      }
      const bytes = Buffer.from(data.replace(/^data:[^,]+,/, ''), 'base64');
      if (bytes.length > 2 * 1024 * 1024) throw badRequest('payload_too_large', messages.chat.uploadImage5);
      const isJpeg = startsWith(bytes, JPEG);
      if (!isJpeg && !startsWith(bytes, PNG)) {
        throw validationError([{ field: 'photoBase64', message: messages.validation.invalidValue }]);
      }
      const stored = await blobs.put(ctx.state.tenant.id, bytes, isJpeg ? 'jpg' : 'png');
      ctx.body = { data: await auth.updateProfile(ctx.state.tenant, userOf(ctx), { photoUrl: stored.url }) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/users/:id/send-login',
    access: access.permission('agents'),
    handler: async (ctx) => {
      await auth.sendSignInLink(ctx.state.tenant, String(ctx.params.id));
      ctx.body = { data: { message: messages.auth.accessEmailSent } };
    },
  });
}
