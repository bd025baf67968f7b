export { createServer, type AppServer } from './server';
export { loadConfig, type Config } from './config';
export { ManualClock, systemClock, type Clock } from './clock';
export { startSmtpCatcher, type SmtpCatcher } from './services/mail/smtp-catcher';
export { seedDemo, DEMO_ACCOUNTS } from './demo/seed-demo';
