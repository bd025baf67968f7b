import { format, messages } from '@atendimento/schemas';
import type { RegisterDefinition, RegisterSchema } from '@atendimento/schemas/registers/index';
import type { RouteSpec } from '../../access';

/**
 * The OpenAPI 3.1 description of /api (docs/api.md), built from what the server really has:
 * the route table (every route is registered with its method, path and access rule, the same
 * list the role matrix walks) and the registers' JSON Schemas, which become the request and
 * answer bodies of their CRUD routes. OpenAPI 3.1 schemas are JSON Schema, so the register
 * schemas go in as they are (their extra keywords such as `order` or `errorMessage` are
 * annotations there).
 */
type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

/** The route's access in words; a screen rule reads as the route kind it amounts to. */
function accessText(a: RouteSpec['access']): string {
  if (a.kind === 'permission') return `${ACCESS_TEXT.permission} (${a.permission})`;
  if (a.kind !== 'rule') return ACCESS_TEXT[a.kind];
  const base = a.rule.access === 'admin' ? ACCESS_TEXT.admin
    : a.rule.access === 'admin-or-permission' ? `${ACCESS_TEXT.permission} (${a.rule.permission})`
    : ACCESS_TEXT.user;
  const text = a.rule.claim ? `${base} ${format(TEXT.claimRequired, { claim: a.rule.claim })}` : base;
  return a.members ? format(TEXT.membersOnly, { access: text }) : text;
}

const TEXT = messages.api.openApi;
const ACCESS_TEXT: Record<RouteSpec['access']['kind'], string> = TEXT.access;

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

function cleanSchema(schema: RegisterSchema): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema as RegisterSchema & { $schema?: unknown; $id?: unknown };
  return rest as Record<string, unknown>;
}

function componentName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** Which register (and whether its /:id form) a route path belongs to. */
function registerOf(path: string, registers: ReadonlyMap<string, RegisterDefinition>): { name: string; item: boolean } | null {
  const match = /^\/api\/([A-Za-z][A-Za-z0-9_]*)(\/:id)?$/.exec(path);
  if (!match || !registers.has(match[1]!)) return null;
  return { name: match[1]!, item: Boolean(match[2]) };
}

function tagOf(path: string): string {
  const segment = path.split('/')[2] ?? 'api';
  if (segment === 'mongodb' || segment === 'registers' || segment === 'lookup') return 'registers';
  if (segment.startsWith('integration') || segment === 'erp-proxy' || segment === 'erp') return 'integrations';
  return segment.replace(/^:.*/, 'api');
}

export function buildOpenApi(options: {
  routes: readonly RouteSpec[];
  registers: ReadonlyMap<string, RegisterDefinition>;
  serverUrl: string;
  title: string;
  version: string;
}): OpenApiDocument {
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['error', 'errorMessage'],
      properties: {
        error: { type: 'string', description: TEXT.errorCode },
        errorMessage: { type: 'string', description: TEXT.errorMessage },
        fields: { type: 'array', items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
    IntegrationRecord: { type: 'object', description: TEXT.integrationRecord, additionalProperties: true },
  };
  for (const [name, definition] of options.registers) schemas[componentName(name)] = cleanSchema(definition.schema);

  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  for (const route of options.routes) {
    if (!route.path.startsWith('/api/')) continue;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const register = registerOf(route.path, options.registers);
    const method = route.method.toLowerCase();
    const ref = register ? { $ref: `#/components/schemas/${componentName(register.name)}` } : route.path.startsWith('/api/integration/:collection') ? { $ref: '#/components/schemas/IntegrationRecord' } : null;

    const responses: Record<string, unknown> = {};
    if (ref && route.method === 'GET') {
      responses['200'] = {
        description: 'OK',
        content: { 'application/json': { schema: register?.item || route.path.endsWith('/:id') ? ref : { type: 'array', items: ref } } },
        ...(!(register?.item || route.path.endsWith('/:id')) && { headers: { 'Content-Range': { schema: { type: 'string' }, description: 'Ex.: contacts 0-9/42' } } }),
      };
    } else if (ref && (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') && !route.path.endsWith('/remove')) {
      responses[route.method === 'POST' ? '201' : '200'] = { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { data: ref } } } } };
    } else {
      responses['200'] = { description: 'OK' };
    }
    responses['400'] = ERROR_RESPONSE;
    if (route.access.kind !== 'public') {
      responses['401'] = ERROR_RESPONSE;
      responses['403'] = ERROR_RESPONSE;
    }
    if (params.length) responses['404'] = ERROR_RESPONSE;

    const hasBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
    const requestBody = !hasBody
      ? undefined
      : route.path.endsWith('/remove')
        ? { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } }
        : ref
          ? { required: true, content: { 'application/json': { schema: ref } } }
          : route.before?.length
            ? { content: { 'multipart/form-data': { schema: { type: 'object' } } } }
            : { content: { 'application/json': { schema: { type: 'object' } } } };

    const access = accessText(route.access);
    paths[path] ??= {};
    paths[path]![method] = {
      operationId: `${method}${path.replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean).map((s) => s[0]!.toUpperCase() + s.slice(1)).join('')}`,
      tags: [tagOf(route.path)],
      summary: `${route.method} ${path}`,
      description: `Acesso: ${access}${route.tenantClaim ? ` Exige a configuração ${route.tenantClaim} da empresa.` : ''}`,
      ...(route.access.kind === 'public' ? { security: [] } : {}),
      ...(params.length && { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) }),
      ...(requestBody && { requestBody }),
      responses,
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description: TEXT.description,
    },
    servers: [{ url: options.serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: TEXT.bearer } },
      responses: { Error: { description: TEXT.error, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
      schemas,
    },
    paths,
  };
}
