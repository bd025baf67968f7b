import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; LOG_LEVEL=silent in tests keeps output readable. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'],
  });
}
