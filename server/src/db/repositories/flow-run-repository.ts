import type { Knex } from 'knex';
import type { Db, Executor } from '../knex';
import { parseJson } from '../knex';

/** A flow run as the bot last reported it (docs/flows.md). */
export interface FlowRun {
  id: string;
  roomId: string;
  flowId: string;
  completed: boolean;
  results: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

function toRun(r: Record<string, unknown>): FlowRun {
  return {
    id: String(r.id),
    roomId: String(r.room_id),
    flowId: String(r.flow_id),
    completed: Boolean(r.completed),
    results: parseJson<Record<string, string>>(r.results, {}),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

/** SQL of flow runs and of what recording one checks (the chat, the flow); tenant id first. */
export function createFlowRunRepository(db: Db) {
  return {
    transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The run with this id, locked on PostgreSQL (two reports of one run apply one after the other). */
    async get(q: Executor, tenantId: string, runId: string): Promise<FlowRun | null> {
      const row = await q('flow_runs')
        .where({ tenant_id: tenantId, id: runId })
        .modify((b) => {
          if (db.client.config.client === 'pg') b.forUpdate();
        })
        .first();
      return row ? toRun(row) : null;
    },

    async save(q: Executor, tenantId: string, run: FlowRun): Promise<void> {
      await q('flow_runs')
        .insert({
          tenant_id: tenantId, id: run.id, room_id: run.roomId, flow_id: run.flowId, completed: run.completed,
          results: JSON.stringify(run.results), created_at: run.createdAt, updated_at: run.updatedAt,
        })
        .onConflict(['tenant_id', 'id'])
        .merge(['completed', 'results', 'updated_at']);
    },

    /** Whether the chat exists in the tenant (deleted chats included: their runs still happened). */
    async roomExists(q: Executor, tenantId: string, roomId: string): Promise<boolean> {
      return Boolean(await q('rooms').where({ tenant_id: tenantId, id: roomId }).first('id'));
    },

    /** The flow of the Fluxos register (not deleted): its name and expected result, if any. */
    async flow(q: Executor, tenantId: string, flowId: string): Promise<{ id: string; name: string } | null> {
      const row = await q('documents').where({ tenant_id: tenantId, collection: 'flows', id: flowId }).whereNull('deleted_at').first('id', 'data');
      return row ? { id: String(row.id), name: String(parseJson<{ name?: unknown }>(row.data, {}).name ?? '') } : null;
    },

    /** A chat's runs (the summary and the API read them). */
    async ofRoom(q: Executor, tenantId: string, roomId: string): Promise<FlowRun[]> {
      const rows = await q('flow_runs').where({ tenant_id: tenantId, room_id: roomId }).orderBy('created_at').orderBy('id');
      return rows.map(toRun);
    },
  };
}

export type FlowRunRepository = ReturnType<typeof createFlowRunRepository>;
