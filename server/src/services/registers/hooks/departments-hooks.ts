import { format, messages } from '@atendimento/schemas';
import { validationError } from '../../../errors';
import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import type { RegisterRepository, RegisterTable } from '../../../db/repositories/register-repository';
import type { RegisterHooks } from '../register-hooks';

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Departments: the agents and supervisors arrays are mirrored into department_members in the
 * same transaction (auth computes supervisorOf/agentOf from those rows); orderedAgents keeps
 * exactly the department's agents; each department has its queue "depto" + id (seed 001 §3),
 * kept in step with its name, agents and active flag.
 */
export function departmentsHooks(deps: { lookups: RegisterLookups; repo: RegisterRepository; queues: RegisterTable }): RegisterHooks {
  const { lookups, repo, queues } = deps;
  return {
    async beforeWrite(ctx, next) {
      const agents = [...new Set(ids(next.agents))];
      const supervisors = [...new Set(ids(next.supervisors))];
      const existing = await lookups.existingAgents(ctx.tenant.id, [...agents, ...supervisors], ctx.trx);
      const unknown = [
        ...(agents.some((id) => !existing.has(id)) ? [{ field: 'agents', message: format(messages.registers.unknownReference, { field: 'Agentes' }) }] : []),
        ...(supervisors.some((id) => !existing.has(id)) ? [{ field: 'supervisors', message: format(messages.registers.unknownReference, { field: 'Supervisores' }) }] : []),
      ];
      if (next.parent && next.parent === next.id) unknown.push({ field: 'parent', message: messages.validation.invalidValue });
      if (unknown.length) throw validationError(unknown);
      next.agents = agents;
      next.supervisors = supervisors;
      const ordered = ids(next.orderedAgents).filter((id) => agents.includes(id));
      next.orderedAgents = [...new Set([...ordered, ...agents])];
    },
    async afterWrite(ctx, next) {
      await lookups.replaceDepartmentMembers(ctx.tenant.id, next.id, ids(next.agents), ids(next.supervisors), ctx.trx);
      const queueId = `depto${next.id}`;
      const current = await repo.get(ctx.tenant.id, queues, queueId, ctx.trx);
      const queue = {
        ...(current ?? { default: false, contexts: [], transhipment: null }),
        id: queueId,
        name: String(next.displayName),
        displayName: String(next.displayName),
        isDept: true,
        departament: next.id,
        agents: ids(next.agents),
        active: next.active !== false,
      };
      if (current) await repo.update(ctx.tenant.id, queues, queue, ctx.now, ctx.trx);
      else await repo.insert(ctx.tenant.id, queues, queue, ctx.now, ctx.trx);
      ctx.record({ collection: 'queues', id: queueId, op: 'upsert' });
    },
    async afterDelete(ctx, deleted) {
      const departmentIds = deleted.map((d) => d.id);
      await lookups.removeDepartmentMembers(ctx.tenant.id, departmentIds, ctx.trx);
      const gone = await repo.softDelete(ctx.tenant.id, queues, departmentIds.map((id) => `depto${id}`), ctx.now, ctx.trx);
      for (const id of gone) ctx.record({ collection: 'queues', id, op: 'delete' });
    },
  };
}
