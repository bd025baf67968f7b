export * from './types';
export * from './definition';
export * from './titles';
export * from './validation';
export * from './widgets';
