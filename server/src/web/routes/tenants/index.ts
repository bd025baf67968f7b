import { notFound } from '../../../errors';
import type { Tenants } from '../../../services/tenants';
import { access, type ApiRegistry } from '../../access';

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

  api.add({
    method: 'GET',
    path: '/api/health',
    access: access.public,
    handler: (ctx) => {
      ctx.body = { data: { ok: true, tenantId: ctx.state.tenant.id } };
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
