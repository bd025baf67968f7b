import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { registerRule, registerWriteRule, type RegisterDefinition } from '@atendimento/schemas/registers/index';
import { badRequest, notFound } from '../../../errors';
import type { RegisterService, Caller } from '../../../services/registers/register-service';
import type { LookupService } from '../../../services/registers/lookup-service';
import type { TenantRow } from '../../../db/repositories/tenant-repository';
import { parseMongoQuery, parseSimpleRestQuery } from '../../../services/registers/register-query';
import { definitionsFor, tenantSchema } from '../../../services/registers/definition-view';
import { validatorModule } from '../../../services/registers/validator-module';
import { hasTenantClaim } from '@atendimento/schemas';
import { access, userOf, type Access, type ApiRegistry, type AppContext } from '../../access';
import { bodyOf } from '../../request';

/** The route access of a register: the same rule as its screen (seed 000 §2). */
export function registerAccess(definition: RegisterDefinition): { access: Access } {
  return { access: access.rule(registerRule(definition.list)) };
}

/** The route access of a register's writes: its write rule (list.json `writeAccess`). */
export function registerWriteAccess(definition: RegisterDefinition): { access: Access } {
  const rule = registerWriteRule(definition.list);
  // Registers every user may open are written by members only, unless the rows are the caller's own.
  const members = (rule.access === 'user' || rule.access === 'tenantClaim') && !definition.list.ownerField;
  return { access: access.rule(rule, { members }) };
}

export function callerOf(ctx: AppContext): Caller {
  const principal = userOf(ctx);
  return { tenant: ctx.state.tenant, user: principal.user, departments: [...new Set([...principal.agentOf, ...principal.supervisorOf])] };
}

/** ids of PATCH /{collection}/remove: a JSON array (seed 000 §7) or { ids: [...] }. */
function idsOf(body: unknown): string[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { ids?: unknown }).ids) ? (body as { ids: unknown[] }).ids : null;
  if (!list || list.length === 0 || list.length > 1000 || !list.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) {
    throw badRequest('ids_required', messages.validation.invalidValue);
  }
  return list as string[];
}

function contentRange(ctx: Context, name: string, offset: number, count: number, total: number): void {
  ctx.set('Content-Range', `${name} ${offset}-${Math.max(offset, offset + count - 1)}/${total}`);
  // The data provider reads it through fetch: browsers hide it unless exposed.
  ctx.set('Access-Control-Expose-Headers', 'Content-Range');
}

/**
 * CRUD of every register in the ra-data-simple-rest dialect plus the seed's Mongo-style list
 * calls (seed 000 §7). Routes are registered per register with the register's own access
 * rule, so the role matrix walks each one. Specific paths come before /:id.
 */
interface RegisterRouteDeps {
  registers: RegisterService;
  lookups: LookupService;
  /** auth's 'Enviar Login': e-mails a one-time sign-in link to an agent. */
  sendSignInLink(tenant: TenantRow, userId: string): Promise<void>;
}

export function registerRegisterRoutes(api: ApiRegistry, deps: RegisterRouteDeps): void {
  const { registers } = deps;
  for (const definition of registers.definitions.values()) {
    const name = definition.name;
    const base = `/api/${name}`;
    const guard = registerAccess(definition);
    const writeGuard = registerWriteAccess(definition);

    api.add({
      method: 'PATCH',
      path: `${base}/remove`,
      ...writeGuard,
      handler: async (ctx) => {
        const removed = await registers.remove(callerOf(ctx), name, idsOf(bodyOf(ctx)));
        ctx.body = { data: removed.map((r) => r.id), message: messages.table.deletedMany };
      },
    });

    api.add({
      method: 'GET',
      path: base,
      ...guard,
      handler: async (ctx) => {
        const query = parseSimpleRestQuery(definition, registers.fieldsOf(name), ctx.query as Record<string, unknown>);
        const page = await registers.list(callerOf(ctx), name, query, { total: true });
        contentRange(ctx, name, query.offset, page.records.length, page.total ?? page.records.length);
        ctx.body = page.records;
      },
    });

    api.add({
      method: 'POST',
      path: base,
      ...writeGuard,
      handler: async (ctx) => {
        ctx.status = 201;
        ctx.body = await registers.create(callerOf(ctx), name, bodyOf(ctx));
      },
    });

    api.add({
      method: 'GET',
      path: `/api/mongodb/${name}/count`,
      ...guard,
      handler: async (ctx) => {
        const query = parseMongoQuery(definition, registers.fieldsOf(name), ctx.query as Record<string, unknown>);
        const count = await registers.count(callerOf(ctx), name, query.filter);
        ctx.body = { count, meta: { collection: name }, data: { count } };
      },
    });

    api.add({
      method: 'GET',
      path: `/api/mongodb/${name}`,
      ...guard,
      handler: async (ctx) => {
        const query = parseMongoQuery(definition, registers.fieldsOf(name), ctx.query as Record<string, unknown>);
        const page = await registers.list(callerOf(ctx), name, query, { total: query.getTotal });
        const more = page.records.length === query.limit;
        ctx.body = {
          meta: { collection: name, total: page.total, last: more ? String(query.offset + page.records.length) : null },
          data: page.records.map((r) => r.id),
          records: page.records,
        };
      },
    });

    if (definition.list.rowActions.includes('sendLogin')) {
      api.add({
        method: 'POST',
        path: `${base}/:id/sendLogin`,
        ...writeGuard,
        handler: async (ctx) => {
          const caller = callerOf(ctx);
          const record = await registers.getOne(caller, name, String(ctx.params.id));
          await deps.sendSignInLink(caller.tenant, record.id);
          ctx.body = { data: { message: messages.auth.accessEmailSent } };
        },
      });
    }

    if (definition.list.rowActions.includes('removeClients')) {
      api.add({
        method: 'PATCH',
        path: `${base}/:id/removeClients`,
        ...writeGuard,
        handler: async (ctx) => {
          const body = bodyOf(ctx) as { clients?: unknown } | undefined;
          const remove = Array.isArray(body?.clients) ? body!.clients.filter((c): c is string => typeof c === 'string') : null;
          if (!remove || remove.length === 0) throw badRequest('clients_required', messages.validation.invalidValue);
          const caller = callerOf(ctx);
          const current = await registers.getOne(caller, name, String(ctx.params.id));
          const clients = (Array.isArray(current.clients) ? current.clients : []).filter((c) => !remove.includes(String(c)));
          const removedClients = [...new Set([...(Array.isArray(current.removedClients) ? current.removedClients : []), ...remove])];
          const saved = await registers.update(caller, name, current.id, { clients, removedClients }, 'merge');
          ctx.body = { data: saved, message: messages.registers.removeClientsDone };
        },
      });
    }

    api.add({
      method: 'GET',
      path: `${base}/:id`,
      ...guard,
      handler: async (ctx) => {
        ctx.body = await registers.getOne(callerOf(ctx), name, String(ctx.params.id));
      },
    });

    for (const method of ['PUT', 'PATCH'] as const) {
      api.add({
        method,
        path: `${base}/:id`,
        ...writeGuard,
        handler: async (ctx) => {
          ctx.body = await registers.update(callerOf(ctx), name, String(ctx.params.id), bodyOf(ctx), method === 'PUT' ? 'replace' : 'merge');
        },
      });
    }

    api.add({
      method: 'DELETE',
      path: `${base}/:id`,
      ...writeGuard,
      handler: async (ctx) => {
        const [removed] = await registers.remove(callerOf(ctx), name, [String(ctx.params.id)]);
        ctx.body = removed;
      },
    });
  }

  // The definitions the engine renders its generic screens from (docs/registers.md): only the
  // registers this user may open, with the tenant's disabled fields removed.
  api.add({
    method: 'GET',
    path: '/api/registers/definitions',
    access: access.user,
    handler: (ctx) => {
      const caller = callerOf(ctx);
      ctx.body = { data: definitionsFor(registers.definitions.values(), caller.tenant, caller.user) };
    },
  });

  // The forms' precompiled validators (services/registers/validator-module.ts). Loaded with
  // import(), which sends no Authorization header, so the route is public per tenant: it
  // reveals only a register's validation rules (already in the app's bundle for the bundled
  // registers), never data, and only for registers the tenant has.
  api.add({
    method: 'GET',
    path: '/api/registers/validators/:file',
    access: access.public,
    handler: (ctx) => {
      const name = /^(.+)\.js$/.exec(String(ctx.params.file))?.[1] ?? '';
      const definition = registers.definitions.get(name);
      const tenant = ctx.state.tenant;
      if (!definition || (definition.list.claim && !hasTenantClaim(tenant.appConfig, definition.list.claim))) {
        throw notFound('register_not_found', messages.errors.routeNotFound);
      }
      ctx.type = 'text/javascript; charset=utf-8';
      // The URL carries the schema's hash: a changed schema gets a new URL.
      ctx.set('Cache-Control', ctx.query.v ? 'private, max-age=31536000, immutable' : 'no-cache');
      ctx.body = validatorModule(tenantSchema(definition, tenant));
    },
  });

  // Titles of another register's records for pickers (autocomplete, select, chips): any
  // signed-in user, within the tenant claim and row scope of that register.
  api.add({
    method: 'GET',
    path: '/api/lookup/:collection',
    access: access.user,
    handler: async (ctx) => {
      const result = await deps.lookups.lookup(callerOf(ctx), String(ctx.params.collection), ctx.query as Record<string, unknown>);
      ctx.body = { data: result };
    },
  });
}
