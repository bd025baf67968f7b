import { createContext, useContext } from 'react';
import { APP_ROUTES, type AppRoute } from '@atendimento/schemas';

/** The routes of this tenant (root view applied, menu integrations added), for drawer, toolbar and guard. */
export const ShellRoutesContext = createContext<readonly AppRoute[]>(APP_ROUTES);

export function useShellRoutes(): readonly AppRoute[] {
  return useContext(ShellRoutesContext);
}
