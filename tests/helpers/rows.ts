import { toJson } from '@atendimento/server/db/knex';

/**
 * Rows for tables the tests and benchmarks fill directly (channels and departments have no
 * create route of their own in these set-ups): the columns and the JSON `data` the server reads.
 */
export function channelRow(tenantId: string, channel: { id: string; type: string; displayName: string; departmentId: string | null; color?: string; [extra: string]: unknown }, iso: string) {
  const { id, type, displayName, color = '#1976D2', ...rest } = channel;
  return {
    id, tenant_id: tenantId, type, display_name: displayName, active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id, type, displayName, active: true, hide: false, color, menuOrder: 0, migrated: true, claims: {}, ...rest }),
  };
}

export function departmentRow(tenantId: string, department: { id: string; displayName: string; agents?: string[]; supervisors?: string[] }, iso: string) {
  const { id, displayName, agents = [], supervisors = [] } = department;
  return {
    id, tenant_id: tenantId, display_name: displayName, active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id, displayName, active: true, agents, supervisors, lifeControl: { createdAt: iso, deletedAt: null } }),
  };
}
