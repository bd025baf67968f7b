import { TENANT_SETTINGS_SCHEMA, TENANT_SETTINGS_UI } from '@atendimento/schemas';
import type { RegisterSchema } from '@atendimento/schemas/registers/index';
import { notFound } from '../../../errors';
import type { Tenants } from '../../../services/tenants';
import { schemaVersion, validatorModule } from '../../../services/registers/validator-module';
import { access, userOf, type ApiRegistry } from '../../access';
import { bodyOf } from '../../request';

const SETTINGS_SCHEMA = TENANT_SETTINGS_SCHEMA as unknown as RegisterSchema;

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webp: 'image/webp',
};

/** Tenant configuration, health, server time and stored files. */
export function registerTenantRoutes(api: ApiRegistry, domain: Tenants): void {
  const { service: tenants, blobs } = domain;
  // The app reads `data.data` as its configuration (seed 000 §7). 'current' means "this host's".
  api.add({
    method: 'GET',
    path: '/api/master/tenants/:tenantId/appConfig',
    access: access.public,
    handler: (ctx) => {
      const tenant = ctx.state.tenant;
      if (ctx.params.tenantId !== 'current' && ctx.params.tenantId !== tenant.id) throw notFound();
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: tenants.appConfig(tenant) };
    },
  });

  // The settings screen (docs/tenancy.md "Settings"): admins of the tenant only.
  api.add({
    method: 'GET',
    path: '/api/tenant-settings',
    access: access.admin,
    handler: async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        data: await domain.settings.read(ctx.state.tenant),
        schema: TENANT_SETTINGS_SCHEMA,
        uiSchema: TENANT_SETTINGS_UI,
        validatorUrl: `/api/tenant-settings/validator.js?v=${schemaVersion(SETTINGS_SCHEMA)}`,
      };
    },
  });
  api.add({
    method: 'PUT',
    path: '/api/tenant-settings',
    access: access.admin,
    handler: async (ctx) => {
      const { user } = userOf(ctx);
      const saved = await domain.settings.save(ctx.state.tenant, user, bodyOf(ctx));
      ctx.body = { data: saved.settings };
    },
  });
  api.add({
    method: 'GET',
    path: '/api/tenant-settings/audit',
    access: access.admin,
    handler: async (ctx) => {
      ctx.body = { data: await domain.settings.audit(ctx.state.tenant) };
    },
  });
  // The form's precompiled validator (as the registers'): import() sends no token, and it
  // holds only the schema, which ships in the app's bundle anyway.
  api.add({
    method: 'GET',
    path: '/api/tenant-settings/validator.js',
    access: access.public,
    handler: (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('Cache-Control', ctx.query.v ? 'private, max-age=31536000, immutable' : 'no-cache');
      ctx.body = validatorModule(SETTINGS_SCHEMA);
    },
  });

  api.add({
    method: 'GET',
    path: '/api/health',
    access: access.public,
    handler: (ctx) => {
      // live: this process answers; ready: it can serve (filled in by the edge middleware, docs/production.md "Health").
      const readiness = (ctx.state as { readiness?: { ready: boolean; checks: Record<string, boolean> } }).readiness;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: { ok: true, tenantId: ctx.state.tenant.id, live: true, ready: readiness?.ready ?? true, checks: readiness?.checks ?? {} } };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/time',
    access: access.public,
    handler: (ctx) => {
      ctx.body = { data: { time: new Date().toISOString() } };
    },
  });

  // Random file names are capabilities; the tenant must also match the host's.
  api.add({
    method: 'GET',
    path: '/api/files/:tenantId/:name',
    access: access.public,
    handler: async (ctx) => {
      if (ctx.params.tenantId !== ctx.state.tenant.id) throw notFound();
      const file = await blobs.open(ctx.state.tenant.id, String(ctx.params.name));
      if (!file) throw notFound();
      const type = CONTENT_TYPES[file.ext];
      ctx.set('Cache-Control', 'private, max-age=86400, immutable');
      if (type) ctx.type = type;
      else {
        // Anything we cannot vouch for (HTML, SVG...) is downloaded, never rendered inline.
        ctx.type = 'application/octet-stream';
        ctx.attachment(String(ctx.params.name));
      }
      ctx.length = file.size;
      ctx.body = file.stream();
    },
  });
}
