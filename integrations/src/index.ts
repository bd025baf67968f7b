export * from './channels/index';
