export * from './channel';
export * from './message';
export * from './room';
export * from './tabs';
export * from './api';
export * from './closing';
export * from './mail';
export * from './routing';
