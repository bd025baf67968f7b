export { useIntegrationViews, refreshIntegrations, resetIntegrationViews, type IntegrationView } from './integrationViews';
export { integrationMenuRoutes, integrationRouteElements } from './integrationRoutes';
