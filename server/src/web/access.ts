import type { RouteIndex } from './route-index';
import type { Context, Middleware, Next } from 'koa';
import { allows, hasPermission, isAdmin, isStranger, type AccessRule } from '@atendimento/schemas';
import { forbidden, unauthorized } from '../errors';
import type { TenantRow } from '../db/repositories/tenant-repository';
import type { AuthService, Principal } from '../services/auth/auth-service';
import type { ChatScope } from '../services/chat/room-scope';
import { routePath } from './path-rule';
import type { UploadBudget } from './upload-budget';

/**
 * Who may call a route. Every route is registered with one of these, so the server enforces
 * roles in one place and the role-matrix test can walk every route (tests/role-matrix).
 */
export type Access =
  | { kind: 'public' }
  /** A signed-in user or an anonymous visitor token (public chat). */
  | { kind: 'anonymous' }
  | { kind: 'user' }
  /** A signed-in user who is not a stranger (docs/security.md: public sign-up, nothing granted yet). */
  | { kind: 'member' }
  /** Admin, or a user claim named like the screen (seed 000 §2 navigation guard). */
  | { kind: 'permission'; permission: string }
  | { kind: 'admin' }
  /** Admin or supervisor of at least one department. */
  | { kind: 'supervisor' }
  /** A screen's or register's access rule, evaluated by schemas' `allows` (the browser guard's rule). */
  | { kind: 'rule'; rule: AccessRule; members?: boolean };

export const access = {
  public: { kind: 'public' } as Access,
  anonymous: { kind: 'anonymous' } as Access,
  user: { kind: 'user' } as Access,
  member: { kind: 'member' } as Access,
  admin: { kind: 'admin' } as Access,
  supervisor: { kind: 'supervisor' } as Access,
  permission: (permission: string): Access => ({ kind: 'permission', permission }),
  rule: (rule: AccessRule, options: { members?: boolean } = {}): Access => ({ kind: 'rule', rule, ...(options.members && { members: true }) }),
};

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface AppState {
  requestId: string;
  tenant: TenantRow;
  principal: Principal | null;
  /** The caller's chat scope, once a route asked for it (web/request.ts `scopeOf`). */
  scope?: Promise<ChatScope>;
  /** The process's in-flight upload budget (web/upload-budget.ts), for every route that reads a file. */
  uploads: UploadBudget;
}

export type AppContext = Context & { state: AppState };

export interface RouteSpec {
  method: Method;
  path: string;
  access: Access;
  /** Tenant claim that must be on for the route to exist for this tenant (403 otherwise). */
  tenantClaim?: string;
  handler: (ctx: AppContext) => Promise<void> | void;
  /** Extra middleware before the handler (e.g. a streaming body reader). */
  before?: Middleware[];
}

function bearerToken(ctx: Context): string | null {
  const header = ctx.get('Authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** The signed-in user of a route whose access is not public/anonymous. */
export function userOf(ctx: AppContext): Extract<Principal, { kind: 'user' }> {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') throw unauthorized();
  return principal;
}

/** API tokens (docs/api.md): told apart from session tokens, authenticated against the request's method and path. */
export interface ApiTokenAuthenticator {
  isApiToken(bearer: string): boolean;
  authenticate(tenant: TenantRow, bearer: string, method: string, path: string): Promise<Principal>;
}

function authorize(spec: RouteSpec, auth: AuthService, apiTokens?: ApiTokenAuthenticator): Middleware {
  const tenantClaim = spec.tenantClaim;
  const claimed = (ctx: Context, next: Next) => {
    if (tenantClaim && !(ctx.state as AppState).tenant.appConfig.claims?.[tenantClaim]) throw forbidden();
    return next();
  };
  if (spec.access.kind === 'public') {
    // Public routes still learn who calls when a valid token comes along (e.g. sign-out); a
    // call without one (a probe, a webhook, the login) passes without a promise of its own.
    return function authorizePublic(ctx, next) {
      const state = ctx.state as AppState;
      const token = bearerToken(ctx);
      state.principal = null;
      if (!token) return claimed(ctx, next);
      return auth.authenticate(state.tenant, token).catch(() => null).then((principal) => {
        state.principal = principal;
        return claimed(ctx, next);
      });
    };
  }
  return async function authorizeRoute(ctx, next) {
    const state = ctx.state as AppState;
    const token = bearerToken(ctx);
    state.principal = null;
    if (!token) throw unauthorized();
    state.principal = apiTokens?.isApiToken(token)
      ? await apiTokens.authenticate(state.tenant, token, ctx.method, routePath(ctx.path))
      : await auth.authenticate(state.tenant, token);
    const principal = state.principal;
    if (principal.kind === 'anonymous' && spec.access.kind !== 'anonymous') throw forbidden();
    if (principal.kind === 'user') {
      const a = spec.access;
      if (a.kind === 'admin' && !isAdmin(principal.user)) throw forbidden();
      if (a.kind === 'permission' && !hasPermission(principal.user, a.permission)) throw forbidden();
      if (a.kind === 'supervisor' && !isAdmin(principal.user) && principal.supervisorOf.length === 0) throw forbidden();
      if (a.kind === 'rule' && !allows(a.rule, principal.user, state.tenant.appConfig)) throw forbidden();
      const membersOnly = a.kind === 'member' || (a.kind === 'rule' && a.members);
      if (membersOnly && isStranger(principal.user, [...principal.agentOf, ...principal.supervisorOf])) throw forbidden();
    }
    return claimed(ctx, next);
  };
}

/** Registers routes with their access rule and remembers them for the role matrix. */
export function createApiRegistry(router: Pick<RouteIndex, 'register'>, auth: AuthService, apiTokens?: ApiTokenAuthenticator) {
  const routes: RouteSpec[] = [];
  return {
    routes,
    add(spec: RouteSpec): void {
      routes.push(spec);
      const chain: Middleware[] = [authorize(spec, auth, apiTokens), ...(spec.before ?? []), (ctx) => spec.handler(ctx as AppContext)];
      router.register(spec.path, [spec.method], chain);
    },
  };
}

export type ApiRegistry = ReturnType<typeof createApiRegistry>;
