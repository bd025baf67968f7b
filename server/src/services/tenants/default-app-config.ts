// The defaults live in schemas/ so stories and fixtures start from the same configuration.
export { defaultAppConfig } from '@atendimento/schemas';
