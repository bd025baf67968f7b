import { createContext, useContext } from 'react';
import type { AppRoute } from '@atendimento/schemas';
import { APP_ROUTES } from '@atendimento/schemas/app-routes';

/** The routes of this tenant (root view applied, menu integrations added), for drawer, toolbar and guard. */
export const ShellRoutesContext = createContext<readonly AppRoute[]>(APP_ROUTES);

export function useShellRoutes(): readonly AppRoute[] {
  return useContext(ShellRoutesContext);
}
