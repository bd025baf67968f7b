export { useIntegrationViews, refreshIntegrations, resetIntegrationViews, type IntegrationView } from './integrationViews';
export { integrationMenuRoutes, integrationPageRoutes, integrationRouteElements } from './integrationRoutes';
