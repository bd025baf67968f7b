import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { createApiTokenRepository } from '../../db/repositories/api-token-repository';
import type { UserRepository } from '../../db/repositories/user-repository';
import { createApiTokenService } from './api-token-service';

/**
 * The API screen's domain (docs/api.md): API tokens, checked on every /api route, and what the
 * OpenAPI description is built from. Its routes: web/routes/api-tokens.
 */
export function createApiTokens(deps: { db: Db; users: UserRepository; clock: Clock; registers: ReadonlyMap<string, RegisterDefinition> }) {
  const service = createApiTokenService({ tokens: createApiTokenRepository(deps.db), users: deps.users, clock: deps.clock });
  return { service, registers: deps.registers };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
