import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * What a request's log lines carry. The object is filled as the request goes down the
 * middleware chain (request id first, tenant after the tenant middleware, user after
 * authentication), and every line logged inside that request, in any layer, reads it.
 */
export interface LogContext {
  requestId: string;
  tenantId?: string;
  userId?: string;
}

const requestContext = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `context` attached to every log line written inside it (web/middleware/edge-middleware.ts). */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

/** The fields a request's context adds to a log line: the id always, tenant and user once known. */
export function logContextFields(context: LogContext): Record<string, string> {
  const out: Record<string, string> = { requestId: context.requestId };
  const { tenantId, userId } = context;
  if (tenantId) out.tenantId = tenantId;
  if (userId) out.userId = userId;
  return out;
}

/** The current request's log context, to fill in tenant and user as they become known. */
export function currentLogContext(): LogContext | undefined {
  return requestContext.getStore();
}

/**
 * Secrets never reach the logs (docs/production.md "Logs"): credentials in headers, bodies,
 * channel provider settings and errors are replaced by pino's redaction before a line is
 * written; tests/reliability/log-secrets.spec.ts greps a real server's logs for the demo's secrets.
 */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', 'headers["x-hub-signature-256"]',
  'password', 'newPassword', 'currentPassword', 'passwordHash', 'token', 'accessToken', 'refreshToken', 'jwtSecret', 'secret',
  'appSecret', 'verifyToken', 'apiKey', 'clientSecret', 'smtpUrl', 'databaseUrl', 'authorization', 'cookie',
  '*.password', '*.newPassword', '*.passwordHash', '*.token', '*.accessToken', '*.refreshToken', '*.secret', '*.appSecret',
  '*.verifyToken', '*.apiKey', '*.clientSecret', '*.jwtSecret', '*.authorization', '*.cookie', '*.smtpUrl', '*.databaseUrl',
  // Channel settings (docs/channels.md) are never passed to a log call; redaction is the second fence.
  'provider', '*.provider', 'settings', '*.settings', '*.webhookSecret', '*.instanceToken', '*.clientToken',
];

/** Structured JSON logs (pino); LOG_LEVEL=silent in tests keeps output readable. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // Request id, tenant and user on every line written while serving a request.
    mixin() {
      const context = requestContext.getStore();
      return context ? logContextFields(context) : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
