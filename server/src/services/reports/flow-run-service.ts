import { FLOW_RUN_SCHEMA, flowResultsOf, messages, type FlowRunInput } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import { conflict, notFound, validationError } from '../../errors';
import type { FlowRun, FlowRunRepository } from '../../db/repositories/flow-run-repository';
import { validateWith } from '../chat/chat-validation';
import type { ReportService } from './report-service';

const text = messages.flows;

/**
 * Flow runs (docs/flows.md). Flows run in the bot a chat is handed to (destination bot,
 * typebot, …), not in this product; the bot reports each run here and the dashboard's flow
 * reports count them, re-filed with the chat in the same transaction.
 */
export function createFlowRunService(deps: { repo: FlowRunRepository; reports: ReportService; clock: Clock }) {
  const { repo, reports, clock } = deps;
  return {
    /**
     * Records a report of a run: the first report creates it, later ones may complete it
     * (never un-complete it) and add or change results. Answers the run and whether it is new.
     * @example await flowRuns.record(tenantId, { runId: 'r-1', roomId, flowId, completed: true, results: { motivo: 'Financeiro' } });
     */
    async record(tenantId: string, body: unknown): Promise<{ run: FlowRun; created: boolean }> {
      const input = validateWith<FlowRunInput>('flows.run', FLOW_RUN_SCHEMA, body);
      return repo.transaction(async (trx) => {
        if (!(await repo.roomExists(trx, tenantId, input.roomId))) throw notFound('room_not_found', text.roomNotFound);
        if (!(await repo.flow(trx, tenantId, input.flowId))) throw validationError([{ field: 'flowId', message: text.flowNotFound }]);
        const existing = await repo.get(trx, tenantId, input.runId);
        if (existing && (existing.roomId !== input.roomId || existing.flowId !== input.flowId)) throw conflict('flow_run_mismatch', text.runMismatch);
        const now = clock.now().toISOString();
        const run: FlowRun = {
          id: input.runId,
          roomId: input.roomId,
          flowId: input.flowId,
          // A bot may report 'started' after 'completed' (retries out of order): completion stays.
          completed: Boolean(existing?.completed) || input.completed === true,
          results: { ...existing?.results, ...flowResultsOf(input.results) },
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
        };
        await repo.save(trx, tenantId, run);
        await reports.record(trx, tenantId, { type: 'flow.run', roomId: run.roomId });
        return { run, created: !existing };
      });
    },
  };
}

export type FlowRunService = ReturnType<typeof createFlowRunService>;
