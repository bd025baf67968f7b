import { format, messages } from '@atendimento/schemas';

/**
 * A failure the caller can act on. The edge middleware (web/middleware/error-answers.ts) answers it as
 * `{ error, errorMessage }` with `status`; anything else becomes a logged 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly errorMessage: string,
    readonly extra: { fields?: { field: string; message: string }[]; headers?: Record<string, string>; /** What the caller needs to act (a campaign upload's preview). */ data?: unknown } = {},
  ) {
    super(`${code}: ${errorMessage}`);
  }
}

export const badRequest = (code: string, message: string, fields?: { field: string; message: string }[]) =>
  new AppError(400, code, message, { fields });
export const unauthorized = (code = 'unauthorized', message: string = messages.auth.notAuthenticated) =>
  new AppError(401, code, message);
export const forbidden = (code = 'forbidden', message: string = messages.auth.forbidden) =>
  new AppError(403, code, message);
export const notFound = (code = 'not_found', message: string = messages.errors.notFound) =>
  new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
/** A wait as a person reads it: seconds under a minute, else whole minutes rounded up ('15 minutos', not '895 segundos'). */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? messages.auth.waitSecond : format(messages.auth.waitSeconds, { n: s });
  const minutes = Math.ceil(s / 60);
  return minutes === 1 ? messages.auth.waitMinute : format(messages.auth.waitMinutes, { n: minutes });
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'too_many_attempts', format(messages.auth.tooManyAttempts, { wait: waitText(retryAfterSeconds) }), {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/** A 400 listing each failing field, e.g. from JSON Schema validation. */
export function validationError(fields: { field: string; message: string }[]): AppError {
  const summary = fields.map((f) => f.message).join('; ');
  return badRequest('validation_failed', format(messages.errors.validation, { fields: summary }), fields);
}
