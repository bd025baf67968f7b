import type { Logger } from './logger';

/**
 * The process-level last resort (docs/security.md). Every stream a request opens
 * has its own error handler; this catches what slipped through. An error that belongs to one
 * request's stream (a client that went away, a multipart body cut short) is logged and the
 * process keeps serving every other tenant. Anything else leaves the process in an unknown
 * state: it is logged and the process exits, and `npm start`'s supervisor starts a new one
 * (scripts/supervise.mjs).
 */
const STREAM_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'HPE_INVALID_CHUNK_SIZE']);
/** busboy's and the HTTP parser's own words for a body that was cut or malformed. */
const STREAM_MESSAGES = [/^Unexpected end of (form|file)$/, /^Malformed (part header|urlencoded form)$/, /^Part terminated early due to unexpected end of multipart data$/, /^aborted$/, /^Request aborted$/];

export function isRequestStreamError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && STREAM_CODES.has(code)) return true;
  if (STREAM_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  return /node_modules[\\/](busboy|streamsearch)[\\/]/.test(error.stack ?? '');
}

type ErrorKind = 'uncaughtException' | 'unhandledRejection';

/** The handler for one kind: keeps serving on a request's stream error, exits (after logging) on anything else. */
export function processErrorHandler(logger: Logger, kind: ErrorKind, exit: (code: number) => void = (code) => process.exit(code)): (error: unknown) => 'kept' | 'exiting' {
  return (error) => {
    if (isRequestStreamError(error)) {
      logger.warn({ err: error, kind }, 'process.request_stream_error');
      return 'kept';
    }
    logger.fatal({ err: error, kind }, 'process.crashed');
    // Let the log line reach stdout before leaving.
    setTimeout(() => exit(1), 100).unref();
    return 'exiting';
  };
}

/** Installs the handlers once per process (npm start's entry, server/src/main.ts). */
export function installProcessGuard(logger: Logger): () => void {
  const uncaught = processErrorHandler(logger, 'uncaughtException');
  const rejection = processErrorHandler(logger, 'unhandledRejection');
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', rejection);
  return () => {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', rejection);
  };
}
