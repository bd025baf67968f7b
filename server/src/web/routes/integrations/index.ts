import type { Integrations } from '../../../services/integrations';
import type { ApiRegistry } from '../../access';
import { registerContactLinkRoutes } from './contact-links-routes';
import { registerErpProxyRoutes } from './erp-proxy-routes';
import { registerIntegrationRoutes } from './integration-routes';

/** The integrations domain's routes (docs/integrations.md): records, the ERP proxy, contact links. */
export function registerIntegrationsRoutes(api: ApiRegistry, integrations: Integrations): void {
  registerIntegrationRoutes(api, integrations.service);
  registerErpProxyRoutes(api, integrations.erp);
  registerContactLinkRoutes(api, integrations.contactLinks);
}
