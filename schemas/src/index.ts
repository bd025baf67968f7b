export * from './messages';
export * from './domain';
export * from './app-config';
export * from './access';
export * from './query';
export * from './routes';
export * from './chat/index';
export * from './realtime/index';
