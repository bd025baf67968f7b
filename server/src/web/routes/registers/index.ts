import type { Registers } from '../../../services/registers';
import type { ApiRegistry } from '../../access';
import { registerRegisterFileRoutes } from './register-file-routes';
import { registerRegisterRoutes } from './register-routes';

/** Every register route (docs/registers.md); file routes first: their paths must win over /:id. */
export function registerRegistersRoutes(api: ApiRegistry, registers: Registers): void {
  registerRegisterFileRoutes(api, { registers: registers.registers, exports: registers.exports, imports: registers.imports, blobs: registers.blobs });
  registerRegisterRoutes(api, { registers: registers.registers, lookups: registers.lookup, sendSignInLink: registers.sendSignInLink });
}
