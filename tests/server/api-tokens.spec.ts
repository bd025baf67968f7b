import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathInScope, normaliseScopeUrl } from '@atendimento/server/services/api-tokens/api-token-service';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * API tokens and the OpenAPI description (seed 000 §2 "API", 002 §7, docs/api.md):
 * admin-only, only with the tenant's api setting; scoped, hashed, revocable, per tenant.
 */
let t: TestServer;
let admin: string;
let agent: string;
let otherAdmin: string;

async function setApi(tenantId: string, on: boolean) {
  await t.patchAppConfig({ api: on }, tenantId);
}

const generate = (body: unknown, token = admin, host?: string) => t.api('/api/api-tokens', { method: 'POST', token, host, body });

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  agent = await t.tokenFor('acme', 'acme-agente');
  otherAdmin = await t.tokenFor('outra', 'outra-admin');
  await setApi('acme', true);
  await setApi('outra', true);
});
afterAll(() => t?.close());

describe('scope matching', () => {
  it('normalises scope URLs under /api and matches by whole segments', () => {
    expect(normaliseScopeUrl('contacts/')).toBe('/api/contacts');
    expect(normaliseScopeUrl('/api/integration/*')).toBe('/api/integration/*');
    expect(normaliseScopeUrl('/api/../auth')).toBeNull();
    expect(normaliseScopeUrl('')).toBeNull();
    expect(pathInScope('/api/contacts/12', '/api/contacts')).toBe(true);
    expect(pathInScope('/api/contactsX', '/api/contacts')).toBe(false);
    expect(pathInScope('/api/contacts/../agents', '/api/contacts')).toBe(false);
    expect(pathInScope('/api/contacts/a%2F..%2Fb', '/api/contacts')).toBe(false);
    expect(pathInScope('/api/integration/pedidos/1', '/api/integration/*')).toBe(true);
  });
});

describe('API tokens', () => {
  it('are admin-only and exist only while the api setting is on', async () => {
    expect((await t.api('/api/api-tokens', { token: agent })).status).toBe(403);
    expect((await generate({ id: 'erp', urls: ['/api/tags'], methods: ['GET'] }, agent)).status).toBe(403);
    await setApi('acme', false);
    const off = await t.api('/api/api-tokens', { token: admin });
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ error: 'api_disabled', errorMessage: 'A API não está habilitada para esta empresa.' });
    await setApi('acme', true);
    expect((await t.api('/api/api-tokens', { token: admin })).status).toBe(200);
  });

  it('refuses a bad scope with pt-BR field errors', async () => {
    const res = await generate({ id: 'com espaço', urls: ['/api/../auth'], methods: ['TRACE'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['id', 'methods', 'urls']);
    expect(res.body.fields.find((f: { field: string }) => f.field === 'methods').message).toBe('Informe os métodos permitidos: GET, POST, PUT, PATCH ou DELETE.');
  });

  it('is shown once, stored only as its SHA-256, and acts only within its URLs and methods', async () => {
    const res = await generate({ id: 'erp-leitura', urls: ['tags', '/api/contacts'], methods: ['get'] });
    expect(res.status).toBe(201);
    const { token, id, prefix } = res.body.data;
    expect(token).toMatch(/^atk_[A-Za-z0-9_-]{43}$/);
    expect(res.body.data).toMatchObject({ name: 'erp-leitura', urls: ['/api/tags', '/api/contacts'], methods: ['GET'], userId: 'acme-admin', revokedAt: null });
    expect(token.startsWith(prefix)).toBe(true);

    const row = await t.server.db('api_tokens').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const listed = await t.api('/api/api-tokens', { token: admin });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.data.find((x: { id: string }) => x.id === id)).toMatchObject({ name: 'erp-leitura', prefix });

    expect((await t.api('/api/tags', { token })).status).toBe(200);
    expect((await t.api('/api/contacts?range=[0,4]', { token })).status).toBe(200);

    const post = await t.api('/api/tags', { method: 'POST', token, body: { name: 'Nova' } });
    expect(post.status).toBe(403);
    expect(post.body).toEqual({ error: 'api_token_scope', errorMessage: 'Este token de API não permite POST /api/tags.' });
    const outside = await t.api('/api/agents', { token });
    expect(outside.status).toBe(403);
    expect(outside.body.errorMessage).toBe('Este token de API não permite GET /api/agents.');

    // Never the token routes or sessions, whatever the scope.
    const wide = (await generate({ id: 'tudo', urls: ['/api'], methods: ['GET', 'POST', 'DELETE'] })).body.data.token;
    expect((await t.api('/api/tags', { token: wide })).status).toBe(200);
    const mint = await generate({ id: 'x', urls: ['/api'], methods: ['GET'] }, wide);
    expect(mint.status).toBe(403);
    expect(mint.body.errorMessage).toBe('Tokens de API não dão acesso a esta rota.');
    expect((await t.api('/api/auth/me', { token: wide })).status).toBe(403);
  });

  it('acts as the admin who generated it, with that user’s current rights', async () => {
    // A token an admin made keeps admin routes only while the user stays admin and active.
    const token = (await generate({ id: 'agentes', urls: ['/api/agents'], methods: ['GET'] })).body.data.token;
    expect((await t.api('/api/agents', { token })).status).toBe(200);
    await t.server.repos.users.update('acme', 'acme-admin', { active: false }, new Date());
    const disabled = await t.api('/api/agents', { token });
    await t.server.repos.users.update('acme', 'acme-admin', { active: true }, new Date());
    expect(disabled.status).toBe(403);
    expect(disabled.body.error).toBe('user_disabled');
  });

  it('is revocable (401 after), and generating again for the same id revokes the previous one', async () => {
    const first = (await generate({ id: 'rotacao', urls: ['/api/tags'], methods: ['GET'] })).body.data;
    const second = (await generate({ id: 'rotacao', urls: ['/api/tags'], methods: ['GET'] })).body.data;
    const replaced = await t.api('/api/tags', { token: first.token });
    expect(replaced.status).toBe(401);
    expect(replaced.body).toEqual({ error: 'api_token_invalid', errorMessage: 'Token de API inválido ou revogado.' });
    expect((await t.api('/api/tags', { token: second.token })).status).toBe(200);

    const revoked = await t.api(`/api/api-tokens/${second.id}`, { method: 'DELETE', token: admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    expect((await t.api('/api/tags', { token: second.token })).status).toBe(401);
    expect((await t.api('/api/api-tokens/nao-existe', { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('never reaches another tenant: unknown there (401), and not listed or revocable there', async () => {
    const acme = (await generate({ id: 'so-acme', urls: ['/api'], methods: ['GET'] })).body.data;
    const there = await t.api('/api/tags', { token: acme.token, host: t.hosts.outra });
    expect(there.status).toBe(401);
    expect(there.body.error).toBe('api_token_invalid');
    const list = await t.api('/api/api-tokens', { token: otherAdmin, host: t.hosts.outra });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(acme.id);
    expect((await t.api(`/api/api-tokens/${acme.id}`, { method: 'DELETE', token: otherAdmin, host: t.hosts.outra })).status).toBe(404);
    expect((await t.api('/api/tags', { token: acme.token })).status).toBe(200);
    // The seed's path for generation (002 §7) works too, in its own tenant.
    const outra = await t.api('/api/generateToken', { method: 'POST', token: otherAdmin, host: t.hosts.outra, body: { id: 'erp', urls: ['/api/tags'], methods: ['GET'] } });
    expect(outra.status).toBe(201);
    expect((await t.api('/api/tags', { token: outra.body.data.token })).status).toBe(401);
    expect((await t.api('/api/tags', { token: outra.body.data.token, host: t.hosts.outra })).status).toBe(200);
  });

  it('stops working while the api setting is off', async () => {
    const token = (await generate({ id: 'pausa', urls: ['/api/tags'], methods: ['GET'] })).body.data.token;
    await setApi('acme', false);
    const off = await t.api('/api/tags', { token });
    await setApi('acme', true);
    expect(off.status).toBe(403);
    expect(off.body.error).toBe('api_disabled');
    expect((await t.api('/api/tags', { token })).status).toBe(200);
  });
});

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document of the real routes with the registers’ schemas', async () => {
    const res = await t.api('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    // Validates against the OpenAPI 3.1 schema and resolves every $ref.
    const validated = (await SwaggerParser.validate(structuredClone(doc))) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(validated.paths).length).toBeGreaterThan(40);

    expect(doc.paths['/api/contacts'].get.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/contacts' } });
    expect(doc.paths['/api/contacts/{id}'].put.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/contacts' });
    expect(doc.paths['/api/contacts/{id}'].get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(doc.paths['/api/integration/{collection}'].post).toBeDefined();
    expect(doc.paths['/api/api-tokens'].post.description).toContain('Somente administradores');
    expect(doc.paths['/api/openapi.json'].get.security).toEqual([]);
    // Each register's schema as the server validates with it.
    const tags = t.server.services.registers.registers.definitions.get('tags')!.schema;
    expect(doc.components.schemas.tags.properties).toEqual(JSON.parse(JSON.stringify(tags.properties)));
    expect(doc.components.schemas.Error.required).toEqual(['error', 'errorMessage']);
    // Every route of the table is described.
    const described = new Set(Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
    for (const route of t.server.api.routes.filter((r) => r.path.startsWith('/api/'))) {
      expect(described).toContain(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    }
  });

  it('is not served while the api setting is off', async () => {
    await setApi('outra', false);
    const res = await t.api('/api/openapi.json', { host: t.hosts.outra });
    await setApi('outra', true);
    expect(res.status).toBe(404);
  });
});
