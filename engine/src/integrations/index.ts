export { useIntegrationViews, refreshIntegrations, resetIntegrationViews, type IntegrationView } from './integrationViews';
export { integrationMenuRoutes, integrationPageRoutes } from './integrationRoutes';
