import { format, routeTable } from '@atendimento/schemas';
import { integrationRegister, INTEGRATION_MESSAGES, type IntegrationDefinition } from '@atendimento/schemas/integrations/index';
import { validationError } from '../../errors';
import type { RegisterRepository } from '../../db/repositories/register-repository';
import type { RegisterHooks } from '../registers/register-hooks';
import { loadRegisterDefinitions } from '../registers/definition-loader';
import { registerTable } from '../registers/register-tables';
import { schemaProblem } from './integration-schema';
import { INTEGRATION_VIEWS_LIVE } from './integration-live-collection';

/** First path segments the app's own screens use (the route table with the register folders): an integration may not take them. */
const TAKEN = new Set(routeTable([...loadRegisterDefinitions().values()].map((definition) => definition.list)).map((route) => route.path.replace(/^\/+/, '').split('/')[0]!.toLowerCase()).filter(Boolean));
TAKEN.add('integration');

const SCHEMA_FIELDS = ['vjsfSchemaMaster', 'vjsfSchemaItens', 'vjsfSchemaParams'] as const;

/**
 * Rules of the `integrations` register beyond its schema.json (docs/integrations.md): every
 * schema the admin typed must compile with ajv (the server validates the integration's
 * records with it), the master schema must make a register (an object with properties and a
 * text field to title records), and the route and collection must be free in the tenant.
 * Each failure is a 400 on its field, in pt-BR, like any other validation error.
 */
export function integrationDefinitionHooks(deps: { repo: RegisterRepository }): RegisterHooks {
  return {
    async beforeWrite(ctx, next, previous) {
      const errors: { field: string; message: string }[] = [];
      for (const field of SCHEMA_FIELDS) {
        const value = next[field];
        if (value === null || value === undefined) continue;
        const problem = schemaProblem(value);
        if (problem) errors.push({ field, message: problem });
      }
      if (!errors.some((e) => e.field === 'vjsfSchemaMaster')) {
        try {
          integrationRegister(next as unknown as IntegrationDefinition);
        } catch (error) {
          errors.push({ field: 'vjsfSchemaMaster', message: format(INTEGRATION_MESSAGES.schemaInvalid, { detail: (error as Error).message }) });
        }
      }
      const register = String(next.register ?? '');
      const collection = String(next.collection ?? '');
      if (TAKEN.has(register.toLowerCase())) errors.push({ field: 'register', message: format(INTEGRATION_MESSAGES.registerTaken, { register }) });
      const others = await deps.repo.list(
        ctx.tenant.id,
        registerTable(ctx.definition),
        {
          filter: { or: [{ field: 'register', op: '==', value: register }, { field: 'collection', op: '==', value: collection }] },
          orderBy: [],
          offset: 0,
          limit: 10,
        },
        { trx: ctx.trx },
      );
      for (const other of others.records) {
        if (other.id === next.id) continue;
        if (other.register === register && !errors.some((e) => e.field === 'register')) errors.push({ field: 'register', message: format(INTEGRATION_MESSAGES.registerInUse, { register }) });
        if (other.collection === collection) errors.push({ field: 'collection', message: format(INTEGRATION_MESSAGES.collectionInUse, { collection }) });
      }
      // Records live under the collection: renaming it would orphan them.
      if (previous && previous.collection && previous.collection !== collection) {
        const table = { table: 'integration_records', collection: String(previous.collection), columns: {}, fields: {} };
        const some = await deps.repo.list(ctx.tenant.id, table, { filter: null, orderBy: [], offset: 0, limit: 1 }, { trx: ctx.trx });
        if (some.records.length > 0) errors.push({ field: 'collection', message: INTEGRATION_MESSAGES.collectionHasRecords });
      }
      if (errors.length) throw validationError(errors);
    },
    // Every user's menu follows the definitions (integration-live-collection.ts).
    async afterWrite(ctx, next) {
      ctx.record({ collection: INTEGRATION_VIEWS_LIVE, id: next.id, op: 'upsert' });
    },
    async afterDelete(ctx, deleted) {
      for (const record of deleted) ctx.record({ collection: INTEGRATION_VIEWS_LIVE, id: record.id, op: 'delete' });
    },
  };
}
