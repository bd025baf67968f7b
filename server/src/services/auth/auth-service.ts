import { randomUUID } from 'node:crypto';
import { format, messages, type AuthSession } from '@atendimento/schemas';
import { passwordProblem } from '@atendimento/schemas/password-policy';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import { normaliseEmail, publicUser, type UserRecord, type UserRepository } from '../../db/repositories/user-repository';
import type { SessionRepository } from '../../db/repositories/session-repository';
import type { AccessLinkRepository, LinkPurpose } from '../../db/repositories/access-link-repository';
import type { Mailer } from '../mail/mailer';
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized, validationError } from '../../errors';
import { decoyVerify, hashPassword, needsRehash, verifyPassword } from './password';
import { randomToken, sha256, type TokenService } from './tokens';
import type { RateLimiter } from './rate-limiter';

// No spaces, controls or invisible format characters (U+202E turns text around; U+0000 makes
// 'admin@x\0' print like 'admin@x'); letters that compatibility-normalise to others (full-width
// 'ａ' → 'a') are refused in checkEmail: an address must not look like another account's.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+\.[^\s@\p{Cc}\p{Cf}]+$/u;

/** Who is calling: a signed-in user, or an anonymous visitor limited to one room. */
export type Principal =
  | { kind: 'user'; tenantId: string; sessionId: string; user: UserRecord; supervisorOf: string[]; agentOf: string[] }
  | { kind: 'anonymous'; tenantId: string; roomId: string };

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** A session as the web layer needs it: the JSON answer plus the refresh token for the cookie. */
export interface IssuedSession {
  session: AuthSession;
  refreshToken: string;
  refreshExpiresAt: Date;
}

interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  links: AccessLinkRepository;
  tokens: TokenService;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  accountLimiter: RateLimiter;
  ipLimiter: RateLimiter;
  /** Public sign-ups per address (every attempt that passes validation counts: each success is a new account). */
  signUpLimiter?: RateLimiter;
  refreshTtlSeconds: number;
  linkTtlSeconds: number;
  /** The app's address for a tenant, used in e-mailed links (auth/index.ts `tenantAppUrl`). */
  appUrl(tenant: TenantRow): string | Promise<string>;
  /** Checks that a public room token exists in the tenant; returns the room id. */
  findPublicRoom(tenantId: string, publicToken: string): Promise<string | null>;
}

/** What PATCH /api/profile may set (seed 002 "Profile screen"). */
const PROFILE_FIELDS = new Set(['displayName', 'password', 'confirmPassword', 'currentPassword', 'photoUrl', 'whatsapp', 'followMe']);

function checkEmail(email: unknown): string {
  if (typeof email !== 'string' || email.trim() === '') throw badRequest('email_required', messages.validation.emailRequired);
  const trimmed = email.trim();
  if (!EMAIL_PATTERN.test(trimmed) || trimmed.normalize('NFKC') !== trimmed || trimmed.length > 320) throw badRequest('invalid_email', messages.auth.invalidEmail);
  return normaliseEmail(trimmed);
}

function checkNewPassword(password: unknown, confirmPassword: unknown, email?: string | null): string {
  const fields: { field: string; message: string }[] = [];
  if (typeof password !== 'string' || password === '') fields.push({ field: 'password', message: messages.validation.passwordRequired });
  else {
    // The password policy (schemas/src/password-policy.ts, docs/auth.md).
    const problem = passwordProblem(password, { email });
    if (problem) fields.push({ field: 'password', message: problem });
  }
  if (typeof confirmPassword !== 'string' || confirmPassword === '') {
    fields.push({ field: 'confirmPassword', message: messages.validation.confirmRequired });
  } else if (fields.length === 0 && confirmPassword !== password) {
    fields.push({ field: 'confirmPassword', message: messages.validation.passwordsDiffer });
  }
  if (fields.length) throw validationError(fields);
  return password as string;
}

/** Which sessions ended: some sessions, or every session of a user (disabled, deleted). */
export type RevokedSessions = { sessionIds: string[] } | { userId: string; disabled?: boolean };

export function createAuthService(deps: AuthServiceDeps) {
  const { users, sessions, links, tokens, clock } = deps;
  // Listeners told when sessions end (the hub closes their /ws sockets at once).
  const revokedListeners: ((tenantId: string, revoked: RevokedSessions) => void)[] = [];
  const principals = createPrincipalCache(clock);
  const revoked = (tenantId: string, what: RevokedSessions) => {
    principals.invalidate(tenantId);
    for (const listener of revokedListeners) {
      try {
        listener(tenantId, what);
      } catch (err) {
        deps.logger.error({ err, tenantId }, 'auth.revoked_listener_failed');
      }
    }
  };

  /** Every user write of this service: the cached principals of the tenant are dropped after it. */
  async function updateUser(...args: Parameters<typeof users.update>): ReturnType<typeof users.update> {
    try {
      return await users.update(...args);
    } finally {
      principals.invalidate(args[0]);
    }
  }

  async function issue(tenant: TenantRow, user: UserRecord, sessionId: string | null, meta: RequestMeta): Promise<IssuedSession> {
    const now = clock.now();
    const sid = sessionId ?? randomUUID();
    if (!sessionId) await sessions.createSession(tenant.id, { id: sid, userId: user.id, ...meta }, now);
    const refreshToken = randomToken();
    const refreshExpiresAt = new Date(now.getTime() + deps.refreshTtlSeconds * 1000);
    await sessions.addRefreshToken(tenant.id, { id: randomUUID(), sessionId: sid, tokenHash: sha256(refreshToken), expiresAt: refreshExpiresAt }, now);
    const accessToken = await tokens.sign({ sub: user.id, tid: tenant.id, sid, typ: 'user' }, now);
    const departments = await users.departmentsOf(tenant.id, user.id);
    return {
      session: { accessToken, expiresIn: tokens.ttlSeconds, user: publicUser(user, departments) },
      refreshToken,
      refreshExpiresAt,
    };
  }

  async function sendLink(tenant: TenantRow, user: UserRecord, purpose: LinkPurpose): Promise<void> {
    const now = clock.now();
    const token = randomToken();
    await links.create(
      tenant.id,
      {
        id: randomUUID(),
        userId: user.id,
        email: user.email,
        purpose,
        tokenHash: sha256(token),
        expiresAt: new Date(now.getTime() + deps.linkTtlSeconds * 1000),
      },
      now,
    );
    const url = `${await deps.appUrl(tenant)}/finishSignUp?token=${encodeURIComponent(token)}${purpose === 'reset' ? '&mode=resetPassword' : ''}`;
    const text = messages.auth.linkMail;
    const subject = format(purpose === 'reset' ? text.subjectReset : text.subjectSignIn, { tenant: tenant.name });
    const intro = purpose === 'reset' ? text.introReset : text.introSignIn;
    const greeting = format(text.greeting, { name: user.displayName });
    const validity = format(text.validity, { minutes: Math.round(deps.linkTtlSeconds / 60) });
    await deps.mailer.send({
      to: user.email,
      subject,
      text: `${greeting}\n\n${intro}\n\n${url}\n\n${validity}\n${text.ignore}`,
      html: `<p>${format(text.greeting, { name: escapeHtml(user.displayName) })}</p><p>${intro}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p><p>${validity}<br>${text.ignore}</p>`,
    });
  }

  /**
   * Tells the account's previous address that its e-mail or password changed: a
   * takeover through a stolen session or a too-wide permission does not go unnoticed.
   * Failures are logged; the change stands.
   */
  async function sendAccountNotice(tenant: TenantRow, to: { email: string; displayName: string }, change: { email?: string; password?: boolean }): Promise<void> {
    const text = messages.auth.accountNotice;
    const lines = [
      ...(change.email ? [format(text.email, { email: change.email })] : []),
      ...(change.password ? [text.password] : []),
    ];
    if (lines.length === 0) return;
    await deps.mailer
      .send({
        to: to.email,
        subject: format(text.subject, { tenant: tenant.name }),
        text: `${format(text.greeting, { name: to.displayName })}\n\n${lines.join('\n')}\n\n${text.ignore}`,
        html: `<p>${format(text.greeting, { name: escapeHtml(to.displayName) })}</p><p>${lines.map(escapeHtml).join('<br>')}</p><p>${text.ignore}</p>`,
      })
      .catch((err: unknown) => deps.logger.warn({ err, tenantId: tenant.id }, 'auth.account_notice_failed'));
  }

  return {
    /** E-mail and password sign-in (seed 002 §4 "Sign-in", §8). */
    async signIn(tenant: TenantRow, input: { email?: unknown; password?: unknown }, meta: RequestMeta): Promise<IssuedSession> {
      if (tenant.appConfig.claims?.disablePasswordLogin) throw forbidden('password_login_disabled', messages.auth.passwordLoginDisabled);
      const email = checkEmail(input.email);
      if (typeof input.password !== 'string' || input.password === '') throw badRequest('password_required', messages.validation.passwordRequired);
      const accountKey = `${tenant.id}:${email}`;
      const ipKey = `${tenant.id}:${meta.ip ?? 'unknown'}`;
      const wait = Math.max(deps.accountLimiter.retryAfter(accountKey), deps.ipLimiter.retryAfter(ipKey));
      if (wait > 0) throw tooManyRequests(wait);

      const user = await users.findByEmail(tenant.id, email);
      const valid = user ? await verifyPassword(user.passwordHash, input.password) : await decoyVerify(input.password);
      if (!user || !valid || user.type !== 'agent') {
        // Only failures count: an office of 50 agents behind one NAT signing in at
        // shift start is not an attack; guessing is.
        deps.accountLimiter.hit(accountKey);
        deps.ipLimiter.hit(ipKey);
        throw unauthorized('invalid_credentials', messages.auth.invalidCredentials);
      }
      if (!user.active) throw forbidden('user_disabled', messages.auth.userDisabled);
      deps.accountLimiter.reset(accountKey);
      if (user.passwordHash && needsRehash(user.passwordHash)) {
        await updateUser(tenant.id, user.id, { passwordHash: await hashPassword(input.password) }, clock.now());
      }
      return issue(tenant, user, null, meta);
    },

    /** Public sign-up (only with tenant claim publicRegister); the new user is signed in at once. */
    async signUp(
      tenant: TenantRow,
      input: { displayName?: unknown; email?: unknown; password?: unknown; confirmPassword?: unknown },
      meta: RequestMeta,
    ): Promise<IssuedSession> {
      if (!tenant.appConfig.claims?.publicRegister) throw forbidden('register_disabled', messages.auth.registerDisabled);
      const fields: { field: string; message: string }[] = [];
      if (typeof input.displayName !== 'string' || input.displayName.trim() === '') {
        fields.push({ field: 'displayName', message: messages.validation.displayNameRequired });
      }
      if (fields.length) throw validationError(fields);
      const email = checkEmail(input.email);
      const password = checkNewPassword(input.password, input.confirmPassword, email);
      const signUpKey = `${tenant.id}:${meta.ip ?? 'unknown'}`;
      if (deps.signUpLimiter) {
        const wait = deps.signUpLimiter.retryAfter(signUpKey);
        if (wait > 0) throw tooManyRequests(wait);
        // Counted before the e-mail check too, so the 409 below cannot be used to enumerate
        // addresses faster than accounts can be created (docs/auth.md "Sign-up and enumeration").
        deps.signUpLimiter.hit(signUpKey);
      }
      if (await users.findByEmail(tenant.id, email)) throw conflict('email_in_use', messages.auth.emailInUse);
      let user: UserRecord;
      try {
        user = await users.create(
          tenant.id,
          {
            email,
            displayName: (input.displayName as string).trim().slice(0, 200),
            type: 'agent',
            active: true,
            emailVerified: false,
            passwordHash: await hashPassword(password),
          },
          clock.now(),
        );
      } catch (error) {
        // Two sign-ups racing for one e-mail: the unique index decides.
        if (await users.findByEmail(tenant.id, email)) throw conflict('email_in_use', messages.auth.emailInUse);
        throw error;
      }
      return issue(tenant, user, null, meta);
    },

    /** Rotates the refresh token; a reused token revokes its whole session family. */
    async refresh(tenant: TenantRow, refreshToken: string | undefined, meta: RequestMeta): Promise<IssuedSession> {
      if (!refreshToken) throw unauthorized('no_refresh_token', messages.auth.sessionExpired);
      const now = clock.now();
      const row = await sessions.findRefreshToken(tenant.id, sha256(refreshToken));
      if (!row) throw unauthorized('invalid_refresh_token', messages.auth.sessionExpired);
      const session = await sessions.findSession(tenant.id, row.sessionId);
      if (!session || session.revokedAt) throw unauthorized('session_revoked', messages.auth.sessionExpired);
      if (row.usedAt || !(await sessions.consumeRefreshToken(tenant.id, row.id, now))) {
        await sessions.revokeSession(tenant.id, session.id, 'refresh_reuse', now);
        revoked(tenant.id, { sessionIds: [session.id] });
        deps.logger.warn({ tenantId: tenant.id, sessionId: session.id, ip: meta.ip }, 'auth.refresh_reuse');
        throw unauthorized('refresh_token_reused', messages.auth.sessionExpired);
      }
      if (row.expiresAt <= now.toISOString()) throw unauthorized('refresh_token_expired', messages.auth.sessionExpired);
      const user = await users.findById(tenant.id, session.userId);
      if (!user) throw unauthorized('user_not_found', messages.auth.sessionExpired);
      if (!user.active) throw forbidden('user_disabled', messages.auth.userDisabled);
      await sessions.touchSession(tenant.id, session.id, now);
      return issue(tenant, user, session.id, meta);
    },

    async signOut(tenant: TenantRow, principal: Principal | null, refreshToken: string | undefined): Promise<void> {
      const now = clock.now();
      const ended: string[] = [];
      if (principal?.kind === 'user') {
        await sessions.revokeSession(tenant.id, principal.sessionId, 'logout', now);
        ended.push(principal.sessionId);
      }
      if (refreshToken) {
        const row = await sessions.findRefreshToken(tenant.id, sha256(refreshToken));
        if (row) {
          await sessions.revokeSession(tenant.id, row.sessionId, 'logout', now);
          ended.push(row.sessionId);
        }
      }
      if (ended.length) revoked(tenant.id, { sessionIds: ended });
    },

    /**
     * Sends a one-time sign-in or password-recovery link. Answers the same whether or not the
     * account exists, so the form cannot be used to discover e-mails.
     */
    async requestLink(tenant: TenantRow, input: { email?: unknown }, purpose: LinkPurpose, meta: RequestMeta): Promise<void> {
      const email = checkEmail(input.email);
      const key = `${tenant.id}:link:${email}`;
      const wait = Math.max(deps.accountLimiter.retryAfter(key), deps.ipLimiter.retryAfter(`${tenant.id}:${meta.ip ?? 'unknown'}`));
      if (wait > 0) throw tooManyRequests(wait);
      deps.accountLimiter.hit(key);
      const user = await users.findByEmail(tenant.id, email);
      if (!user || !user.active || user.type !== 'agent') {
        deps.logger.info({ tenantId: tenant.id, purpose }, 'auth.link_requested_unknown');
        return;
      }
      // Answer first, send later: waiting for the SMTP server made a known address
      // answer measurably slower than an unknown one.
      void sendLink(tenant, user, purpose).catch((err: unknown) => deps.logger.error({ err, tenantId: tenant.id, purpose }, 'auth.link_mail_failed'));
    },

    sendAccountNotice,

    /**
     * Forgets the tenant's cached principals: a user, an agent or a department changed (the
     * change feed calls it in every process; docs/auth.md "Principal cache").
     */
    invalidatePrincipals(tenantId: string): void {
      principals.invalidate(tenantId);
    },

    /** Called when sessions end (sign-out, refresh reuse, user disabled or deleted...). */
    onSessionsRevoked(listener: (tenantId: string, revoked: RevokedSessions) => void): void {
      revokedListeners.push(listener);
    },

    /**
     * Ends every session of a user (disabled, deleted, e-mail or password changed by an admin):
     * refresh tokens stop working and open sockets close at once.
     */
    async revokeUser(tenant: TenantRow, userId: string, reason: 'disabled' | 'deleted' | 'credentials_changed'): Promise<void> {
      // A delete runs inside the register's transaction (SQLite has one connection): its
      // sessions need no write, since a deleted user's tokens and refresh tokens no longer
      // find the user. Only the sockets are closed.
      if (reason !== 'deleted') await sessions.revokeAllForUser(tenant.id, userId, reason, clock.now());
      revoked(tenant.id, { userId, disabled: reason !== 'credentials_changed' });
    },

    /** Admin action 'Enviar Login': sends the sign-in link to an existing agent. */
    async sendSignInLink(tenant: TenantRow, userId: string): Promise<void> {
      const user = await users.findById(tenant.id, userId);
      if (!user) throw new AppError(404, 'not_found', messages.errors.notFound);
      await sendLink(tenant, user, 'signin');
    },

    /**
     * Completes an e-mailed link (/finishSignUp). The e-mail typed or remembered by the browser
     * must match the link's. Completing a link proves the mailbox, so an account created by
     * someone else with this e-mail loses that password and its sessions (no pre-registration
     * takeover).
     */
    async completeLink(tenant: TenantRow, input: { token?: unknown; email?: unknown }, meta: RequestMeta): Promise<IssuedSession> {
      if (typeof input.token !== 'string' || input.token.length < 20) throw badRequest('link_invalid', messages.auth.linkInvalid);
      const email = checkEmail(input.email);
      const now = clock.now();
      const link = await links.findByHash(tenant.id, sha256(input.token));
      if (!link) throw badRequest('link_invalid', messages.auth.linkInvalid);
      if (link.usedAt || link.expiresAt <= now.toISOString()) throw badRequest('link_expired', messages.auth.linkExpiredOrUsed);
      if (link.email !== email) throw badRequest('link_invalid', messages.auth.linkInvalid);
      if (!(await links.consume(tenant.id, link.id, now))) throw badRequest('link_expired', messages.auth.linkExpiredOrUsed);
      let user = await users.findById(tenant.id, link.userId);
      if (!user) throw badRequest('link_invalid', messages.auth.linkInvalid);
      if (!user.active) throw forbidden('user_disabled', messages.auth.userDisabled);
      if (!user.emailVerified) {
        // docs/auth.md "No pre-registration takeover": a password chosen at sign-up is dropped, and the profile says so.
        await sessions.revokeAllForUser(tenant.id, user.id, 'email_verified', now);
        revoked(tenant.id, { userId: user.id });
        const updatePassReason = user.passwordHash ? 'emailConfirmed' : link.purpose === 'reset' ? 'recovery' : 'firstAccess';
        user = (await updateUser(tenant.id, user.id, { emailVerified: true, passwordHash: null, updatePass: true, updatePassReason }, now))!;
      } else if (link.purpose === 'reset') {
        user = (await updateUser(tenant.id, user.id, { updatePass: true, updatePassReason: 'recovery' }, now))!;
      }
      return issue(tenant, user, null, meta);
    },

    /**
     * Google sign-in (docs/auth.md "Google"): only a verified e-mail counts. An account of this
     * tenant with that e-mail is signed in; one whose e-mail was never confirmed is taken over
     * by the mailbox's owner as a link completion is (its password and sessions dropped), so a
     * stranger's sign-up cannot capture a Google identity. Without an account, an agent is
     * created only when the tenant allows public sign-up.
     */
    async signInWithGoogle(tenant: TenantRow, google: { email: string | null; emailVerified: boolean; name: string | null }, meta: RequestMeta): Promise<IssuedSession> {
      if (!tenant.appConfig.claims?.googleSignIn) throw forbidden('google_disabled', messages.auth.googleLoginDisabled);
      if (!google.email || !google.emailVerified) throw forbidden('google_email_unverified', messages.auth.googleEmailUnverified);
      const now = clock.now();
      let user = await users.findByEmail(tenant.id, google.email);
      if (user) {
        if (!user.active) throw forbidden('user_disabled', messages.auth.userDisabled);
        if (!user.emailVerified) {
          await sessions.revokeAllForUser(tenant.id, user.id, 'email_verified', now);
          user = (await updateUser(tenant.id, user.id, { emailVerified: true, passwordHash: null, ...(user.passwordHash && { updatePass: true, updatePassReason: 'emailConfirmed' }) }, now))!;
        }
        return issue(tenant, user, null, meta);
      }
      if (!tenant.appConfig.claims?.publicRegister) throw forbidden('google_no_account', messages.auth.googleNoAccount);
      user = await users.create(tenant.id, { email: google.email, displayName: (google.name ?? google.email.split('@')[0]!).slice(0, 200), type: 'agent', active: true, emailVerified: true, passwordHash: null }, now);
      return issue(tenant, user, null, meta);
    },

    /** Anonymous sign-in for the public chat page: the token reads exactly one room. */
    async anonymous(tenant: TenantRow, input: { roomToken?: unknown }): Promise<{ accessToken: string; expiresIn: number; roomId: string }> {
      if (typeof input.roomToken !== 'string' || input.roomToken.length < 16) throw badRequest('link_invalid', messages.auth.linkInvalid);
      const roomId = await deps.findPublicRoom(tenant.id, input.roomToken);
      if (!roomId) throw new AppError(404, 'not_found', messages.errors.notFound);
      const accessToken = await tokens.sign({ sub: `anon:${randomUUID()}`, tid: tenant.id, sid: 'anonymous', typ: 'anon', room: roomId }, clock.now());
      return { accessToken, expiresIn: tokens.ttlSeconds, roomId };
    },

    /** Turns a bearer token into a principal for this tenant, or throws 401/403. */
    async authenticate(tenant: TenantRow, bearer: string): Promise<Principal> {
      const now = clock.now();
      const verified = await tokens.verify(bearer, now);
      if (!verified.claims) {
        throw unauthorized(verified.expired ? 'token_expired' : 'invalid_token', verified.expired ? messages.auth.sessionExpired : messages.auth.notAuthenticated);
      }
      const claims = verified.claims;
      if (claims.tid !== tenant.id) throw unauthorized('wrong_tenant', messages.auth.notAuthenticated);
      if (claims.typ === 'anon') {
        if (!claims.room) throw unauthorized('invalid_token', messages.auth.notAuthenticated);
        return { kind: 'anonymous', tenantId: tenant.id, roomId: claims.room };
      }
      const cached = principals.get(tenant.id, claims.sid, claims.sub);
      if (cached) return cached;
      const generation = principals.generation(tenant.id);
      const session = await sessions.findSession(tenant.id, claims.sid);
      if (!session || session.revokedAt || session.userId !== claims.sub) throw unauthorized('session_revoked', messages.auth.sessionExpired);
      const user = await users.findById(tenant.id, claims.sub);
      if (!user) throw unauthorized('user_not_found', messages.auth.notAuthenticated);
      if (!user.active) throw forbidden('user_disabled', messages.auth.userDisabled);
      const departments = await users.departmentsOf(tenant.id, user.id);
      const principal: Principal = { kind: 'user', tenantId: tenant.id, sessionId: session.id, user, supervisorOf: departments.supervisorOf, agentOf: departments.agentOf };
      principals.set(tenant.id, claims.sid, claims.sub, principal, generation);
      return principal;
    },

    /** Profile update (seed 002 §2 "Profile screen"): name, password, photo, WhatsApp. */
    async updateProfile(
      tenant: TenantRow,
      principal: Extract<Principal, { kind: 'user' }>,
      input: { displayName?: unknown; password?: unknown; confirmPassword?: unknown; currentPassword?: unknown; photoUrl?: unknown; whatsapp?: unknown; followMe?: unknown },
      meta?: RequestMeta,
    ) {
      const now = clock.now();
      // The profile's own fields only: a key it does not know (claims, email, type...) is refused, not ignored.
      const unknown = Object.keys(input).filter((key) => !PROFILE_FIELDS.has(key));
      if (unknown.length) throw validationError(unknown.map((field) => ({ field, message: messages.validation.invalidValue })));
      const patch: Parameters<UserRepository['update']>[2] = {};
      if (input.displayName !== undefined) {
        if (typeof input.displayName !== 'string' || input.displayName.trim() === '') {
          throw validationError([{ field: 'displayName', message: messages.validation.displayNameRequired }]);
        }
        patch.displayName = input.displayName.trim().slice(0, 200);
      }
      if (input.password !== undefined && input.password !== null && input.password !== '') {
        const chosen = checkNewPassword(input.password, input.confirmPassword, principal.user.email);
        await checkCurrentPassword(tenant, principal.user, input.currentPassword, meta);
        patch.passwordHash = await hashPassword(chosen);
        patch.updatePass = false;
        patch.updatePassReason = null;
      }
      if (input.photoUrl !== undefined) {
        // A picture of this tenant's files only (the avatar upload stores it there).
        if (input.photoUrl !== null && (typeof input.photoUrl !== 'string' || !/^\/api\/files\/[\w-]+\/[\w-]+\.(jpg|jpeg|png)$/.test(input.photoUrl) || input.photoUrl.split('/')[3] !== tenant.id)) {
          throw validationError([{ field: 'photoUrl', message: messages.validation.invalidValue }]);
        }
        patch.photoUrl = input.photoUrl as string | null;
      }
      if (input.whatsapp !== undefined) {
        const allowed = Boolean(tenant.appConfig.claims?.allowFollowMe) && Boolean(principal.user.claims.allowFollowMe);
        if (!allowed) throw forbidden('follow_me_not_allowed', messages.chatServer.followMeNotAllowed);
        if (input.whatsapp !== null && (typeof input.whatsapp !== 'string' || !/^\+?[\d\s().-]{8,20}$/.test(input.whatsapp))) {
          throw validationError([{ field: 'whatsapp', message: messages.validation.phoneInvalid }]);
        }
        patch.whatsapp = input.whatsapp === null ? null : (input.whatsapp as string).replace(/\D/g, '');
      }
      if (input.followMe !== undefined) {
        // 'Siga-me' (seed 000 §2): the user's own switch, only where tenant and user allow it.
        const allowed = Boolean(tenant.appConfig.claims?.allowFollowMe) && Boolean(principal.user.claims.allowFollowMe);
        if (!allowed) throw forbidden('follow_me_not_allowed', messages.chatServer.followMeNotAllowed);
        if (typeof input.followMe !== 'boolean') throw validationError([{ field: 'followMe', message: messages.validation.invalidValue }]);
        // Forwarding needs somewhere to go: the profile's WhatsApp (this same save may set it).
        const number = patch.whatsapp !== undefined ? patch.whatsapp : principal.user.whatsapp;
        if (input.followMe && !number) throw badRequest('follow_me_needs_whatsapp', messages.chatServer.followMeNeedsWhatsapp, [{ field: 'whatsapp', message: messages.chatServer.followMeNeedsWhatsapp }]);
        patch.claims = { ...principal.user.claims, followMe: input.followMe };
      }
      const updated = await updateUser(tenant.id, principal.user.id, patch, now);
      if (!updated) throw unauthorized();
      if (patch.passwordHash) {
        // A new password signs out every other device; the current session stays.
        const others = await sessionsOf(principal);
        for (const sid of others) await sessions.revokeSession(tenant.id, sid, 'password_changed', now);
        if (others.length) revoked(tenant.id, { sessionIds: others });
        void sendAccountNotice(tenant, principal.user, { password: true });
      }
      return publicUser(updated, { agentOf: principal.agentOf, supervisorOf: principal.supervisorOf });
    },
  };

  /**
   * A password the user has is asked for before it changes (docs/security.md): a leaked access
   * token alone must not take the account over, nor sign its owner out everywhere. Not asked on
   * a first access or after a recovery link (`updatePass`) or where there is none (e-mailed
   * links, Google). Wrong guesses count against the same limits as sign-in, so the profile is no
   * way around them.
   */
  async function checkCurrentPassword(tenant: TenantRow, user: UserRecord, current: unknown, meta?: RequestMeta): Promise<void> {
    if (!user.passwordHash || user.updatePass) return;
    if (typeof current !== 'string' || current === '') {
      throw validationError([{ field: 'currentPassword', message: messages.validation.currentPasswordRequired }]);
    }
    const accountKey = `${tenant.id}:${user.email}`;
    const ipKey = `${tenant.id}:${meta?.ip ?? 'unknown'}`;
    const wait = Math.max(deps.accountLimiter.retryAfter(accountKey), deps.ipLimiter.retryAfter(ipKey));
    if (wait > 0) throw tooManyRequests(wait);
    if (!(await verifyPassword(user.passwordHash, current))) {
      deps.accountLimiter.hit(accountKey);
      deps.ipLimiter.hit(ipKey);
      throw validationError([{ field: 'currentPassword', message: messages.validation.currentPasswordWrong }]);
    }
  }

  async function sessionsOf(principal: Extract<Principal, { kind: 'user' }>): Promise<string[]> {
    return (await deps.sessions.listActiveSessionIds(principal.tenantId, principal.user.id)).filter((id) => id !== principal.sessionId);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export type AuthService = ReturnType<typeof createAuthService>;

/** How long a verified session's principal is reused without reading it again. */
export const PRINCIPAL_TTL_MS = 5_000;

/**
 * The principals of user sessions (session, user, departments: three reads per request),
 * per tenant, kept PRINCIPAL_TTL_MS (docs/auth.md "Principal cache"). Any change to users,
 * agents, departments or sessions drops the tenant's entries; the TTL bounds what a missed
 * notice could leave. A read that started before an invalidation is not stored (generation).
 */
function createPrincipalCache(clock: { now(): Date }) {
  const tenants = new Map<string, { generation: number; entries: Map<string, { principal: Principal; until: number }> }>();
  const of = (tenantId: string) => {
    let t = tenants.get(tenantId);
    if (!t) tenants.set(tenantId, (t = { generation: 0, entries: new Map() }));
    return t;
  };
  return {
    get(tenantId: string, sid: string, sub: string): Principal | null {
      const t = tenants.get(tenantId);
      const hit = t?.entries.get(`${sid}|${sub}`);
      if (!hit) return null;
      if (hit.until > clock.now().getTime()) return hit.principal;
      t!.entries.delete(`${sid}|${sub}`);
      return null;
    },
    generation: (tenantId: string) => of(tenantId).generation,
    set(tenantId: string, sid: string, sub: string, principal: Principal, generation: number): void {
      const t = of(tenantId);
      if (t.generation !== generation) return;
      // Bounded: a flood of distinct sessions cannot grow the map past this.
      if (t.entries.size >= 10_000) t.entries.clear();
      t.entries.set(`${sid}|${sub}`, { principal, until: clock.now().getTime() + PRINCIPAL_TTL_MS });
    },
    invalidate(tenantId: string): void {
      const t = of(tenantId);
      t.generation++;
      t.entries.clear();
    },
  };
}
