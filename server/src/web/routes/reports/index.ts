import { DEFAULT_TIME_ZONE } from '@atendimento/schemas';
import type { Reports } from '../../../services/reports';
import { access, userOf, type ApiRegistry } from '../../access';
import { bodyOrEmpty } from '../../request';

/** The dashboard (seed 002 §2, §3, §6, §7): admins, or users holding the `dashboard` permission. */
export function registerReportRoutes(api: ApiRegistry, domain: Reports): void {
  // Query: days=7|15|30|60|90 or from=YYYY-MM-DD&to=YYYY-MM-DD (≤ 90 days), agents=a,b or
  // departments=x,y. Supervisors get only their departments and those departments' agents.
  api.add({
    method: 'GET',
    path: '/api/dashboard/reports',
    access: access.permission('dashboard'),
    handler: async (ctx) => {
      const principal = userOf(ctx);
      ctx.body = { data: await domain.service.dashboard(ctx.state.tenant.id, { user: principal.user, supervisorOf: principal.supervisorOf }, ctx.query) };
    },
  });

  // Export of full data (getExportData): body { period, fileType, timezone, timezoneOffset,
  // reference }; 202 at once, the file goes by e-mail. exportAdminOnly: admins only.
  api.add({
    method: 'POST',
    path: '/api/dashboard/export',
    access: access.permission('dashboard'),
    handler: async (ctx) => {
      const principal = userOf(ctx);
      const tenant = ctx.state.tenant;
      const { job, email } = await domain.exports.request({
        tenantId: tenant.id,
        user: principal.user,
        supervisorOf: principal.supervisorOf,
        exportAdminOnly: Boolean(tenant.appConfig.claims?.exportAdminOnly),
        timeZone: tenant.appConfig.timeZone || DEFAULT_TIME_ZONE,
        body: bodyOrEmpty(ctx),
        baseUrl: `${ctx.protocol}://${ctx.host}`,
      });
      ctx.status = 202;
      ctx.body = { data: { id: job.id, status: job.status, email } };
    },
  });

  // Progress of the caller's own export.
  api.add({
    method: 'GET',
    path: '/api/dashboard/export/:id',
    access: access.permission('dashboard'),
    handler: async (ctx) => {
      const principal = userOf(ctx);
      const job = await domain.exports.progress(ctx.state.tenant.id, principal.user.id, String(ctx.params.id));
      ctx.body = { data: { id: job.id, status: job.status, rows: job.rows, progress: job.progress } };
    },
  });

  // The time-limited link of a large export (signed; the mail is the capability).
  api.add({
    method: 'GET',
    path: '/api/dashboard/export/:id/file',
    access: access.public,
    handler: async (ctx) => {
      const file = await domain.exports.file(ctx.state.tenant.id, String(ctx.params.id), ctx.query.until, ctx.query.sig);
      ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
      ctx.type = file.type;
      ctx.body = file.stream;
    },
  });

  // Flow runs (docs/flows.md): the bot that ran a flow in a chat reports it, with an API token
  // (it acts as the admin who generated it) or an admin's session. 201 new run, 200 updated.
  api.add({
    method: 'POST',
    path: '/api/flow-runs',
    access: access.admin,
    handler: async (ctx) => {
      const { run, created } = await domain.flowRuns.record(ctx.state.tenant.id, bodyOrEmpty(ctx));
      ctx.status = created ? 201 : 200;
      ctx.body = { data: run };
    },
  });
}
