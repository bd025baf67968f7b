export * from './protocol';
export * from './live-set';
export * from './client';
