export * from './types';
export * from './definition';
export * from './validation';
export * from './widgets';
