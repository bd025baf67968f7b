import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { AppError, badRequest, forbidden } from '../../../errors';
import type { BlobStore } from '../../../services/files/blob-store';
import type { RegisterService } from '../../../services/registers/register-service';
import type { ExportService } from '../../../services/registers/export-service';
import type { ImportService } from '../../../services/registers/import-service';
import { parseSimpleRestQuery } from '../../../services/registers/register-query';
import { detectFileType, SNIFF_BYTES, UPLOAD_MAX_BYTES, type DetectedFile } from '../../../services/registers/file-types';
import { access, type ApiRegistry } from '../../access';
import { objectBody } from '../../request';
import { callerOf, registerAccess, registerWriteAccess } from './register-routes';
import { readMultipart } from './register-multipart';

interface RegisterFileRouteDeps {
  registers: RegisterService;
  exports: ExportService;
  imports: ImportService;
  blobs: BlobStore;
}

/** Import files may be at most this big (a CSV of ~100k rows). */
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

function sendFile(ctx: Context, file: { body: Buffer; fileName: string }, type: string): void {
  ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = type;
  ctx.body = file.body;
}

/**
 * The files of registers (seed 000 §2 toolbar, §7): CSV import with a per-register template,
 * CSV / xlsx / PDF exports, exports by e-mail, and the generic upload (POST /api/upload).
 */
export function registerRegisterFileRoutes(api: ApiRegistry, deps: RegisterFileRouteDeps): void {
  const { registers, exports } = deps;
  for (const definition of registers.definitions.values()) {
    const name = definition.name;
    const base = `/api/${name}`;
    const guard = registerAccess(definition);
    const writeGuard = registerWriteAccess(definition);
    const queryOf = (ctx: Context) => {
      const params = { ...(ctx.query as Record<string, unknown>) };
      // Exports take the list's filter and sort, never a page: the range is the export's.
      delete params.range;
      if (typeof params.filters === 'string' && params.filter === undefined) params.filter = params.filters;
      return parseSimpleRestQuery(definition, registers.fieldsOf(name), params);
    };

    api.add({
      method: 'GET',
      path: `${base}/getRawCsvDataReport`,
      ...guard,
      handler: async (ctx) => sendFile(ctx, await exports.csv(callerOf(ctx), name, queryOf(ctx)), 'text/csv; charset=utf-8'),
    });

    api.add({
      method: 'GET',
      path: `${base}/getXlsxDataReport`,
      ...guard,
      handler: async (ctx) => sendFile(ctx, await exports.xlsx(callerOf(ctx), name, queryOf(ctx)), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    });

    api.add({
      method: 'POST',
      path: `${base}/getDataReport`,
      ...guard,
      handler: async (ctx) => {
        const body = objectBody(ctx);
        const params = { ...(ctx.query as Record<string, unknown>) };
        for (const key of ['filter', 'sort'] as const) if (body[key] !== undefined && params[key] === undefined) params[key] = typeof body[key] === 'string' ? body[key] : JSON.stringify(body[key]);
        delete params.range;
        const query = parseSimpleRestQuery(definition, registers.fieldsOf(name), params);
        const file = await exports.pdf(callerOf(ctx), name, query);
        ctx.set('Content-Disposition', `inline; filename="${file.fileName}"`);
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'application/pdf';
        ctx.body = file.body;
      },
    });

    api.add({
      method: 'GET',
      path: `${base}/csvTemplate`,
      ...guard,
      handler: (ctx) => sendFile(ctx, exports.template(name), 'text/csv; charset=utf-8'),
    });

    api.add({
      method: 'POST',
      path: `${base}/import`,
      ...writeGuard,
      handler: async (ctx) => {
        const caller = callerOf(ctx);
        // Refuse before reading a byte when the caller may not write here.
        registers.prepareMany(caller, name, []);
        const { fields, file } = await readMultipart(ctx, {
          maxBytes: IMPORT_MAX_BYTES,
          sniffBytes: 4096,
          accept: (head, fileName) => {
            if (!/\.csv$/i.test(fileName) || head.includes(0)) throw badRequest('import_only_csv', messages.registers.importOnlyCsv);
            return { maxBytes: IMPORT_MAX_BYTES, tooLarge: messages.registers.importTooBig };
          },
        });
        if (!file || file.bytes.length === 0) throw badRequest('file_required', messages.validation.importFileRequired);
        // Item fields of the form apply to every row (e.g. active), when they are register fields.
        const properties = definition.schema.properties ?? {};
        const defaults: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(fields)) {
          if (!(key in properties) || definition.list.serverFields.includes(key)) continue;
          try {
            defaults[key] = JSON.parse(value);
          } catch {
            defaults[key] = value;
          }
        }
        // Big files answer 202 { meta: { jobId, total } } and run in the background (GET /api/imports/:jobId).
        const outcome = await deps.imports.importCsv(caller, name, file.bytes, defaults);
        ctx.status = outcome.status;
        ctx.body = outcome.body;
      },
    });

    api.add({
      method: 'POST',
      path: `${base}/fileToMail`,
      ...guard,
      handler: async (ctx) => {
        await exports.fileToMail(callerOf(ctx), name, queryOf(ctx), { query: ctx.query as Record<string, unknown>, body: objectBody(ctx) });
        ctx.status = 202;
        ctx.body = { data: { message: messages.table.exportRequested } };
      },
    });

    if (definition.list.subCollections.length) {
      api.add({
        method: 'POST',
        path: `${base}/extractSubCollection`,
        access: guard.access,
        // Seed 000 §6: sub-collection export only with the tenant claim enableAgentStatusExporter.
        tenantClaim: 'enableAgentStatusExporter',
        handler: async (ctx) => {
          if (!ctx.state.tenant.appConfig.claims?.enableAgentStatusExporter) throw forbidden();
          await exports.extractSubCollection(callerOf(ctx), name, queryOf(ctx), { query: ctx.query as Record<string, unknown>, body: objectBody(ctx) });
          ctx.status = 202;
          ctx.body = { data: { message: messages.table.exportRequested } };
        },
      });
    }
  }

  // A background import's progress (docs/registers.md): the caller who started it or an admin of
  // the tenant, while they may still write the register; unknown, finished over an hour ago or
  // someone else's: 404.
  api.add({
    method: 'GET',
    path: '/api/imports/:jobId',
    access: access.user,
    handler: (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: deps.imports.report(callerOf(ctx), String(ctx.params.jobId)) };
    },
  });

  // POST /api/upload (seed 000 §7): multipart field "file"; limits enforced while streaming,
  // type checked by content; answers data.file.imageUrl (images) or documentUrl.
  api.add({
    method: 'POST',
    path: '/api/upload',
    access: access.user,
    handler: async (ctx) => {
      const only = typeof ctx.query.accept === 'string' ? ctx.query.accept : '';
      const { file } = await readMultipart<DetectedFile>(ctx, {
        maxBytes: UPLOAD_MAX_BYTES,
        sniffBytes: SNIFF_BYTES,
        disk: deps.blobs,
        accept: (head, fileName) => {
          const detected = detectFileType(head, fileName);
          if (!detected) throw new AppError(415, 'unsupported_file_type', messages.registers.uploadType);
          if (only === 'pdf' && detected.ext !== 'pdf') throw new AppError(415, 'unsupported_file_type', messages.registers.pdfOnly);
          if (only === 'image' && detected.kind !== 'image') throw new AppError(415, 'unsupported_file_type', messages.registers.uploadType);
          return detected;
        },
      });
      if (!file || file.size === 0) throw badRequest('file_required', messages.registers.uploadRequired);
      const stored = file.tempPath
        ? await deps.blobs.adopt(ctx.state.tenant.id, file.tempPath, file.info.ext, file.size)
        : await deps.blobs.put(ctx.state.tenant.id, file.bytes, file.info.ext);
      const info = { fileName: file.fileName.slice(0, 200), mimeType: file.info.mimeType, size: stored.size };
      ctx.status = 201;
      ctx.body = { data: { file: file.info.kind === 'image' ? { imageUrl: stored.url, ...info } : { documentUrl: stored.url, ...info } } };
    },
  });

}
