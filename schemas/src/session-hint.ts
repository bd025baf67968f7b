/**
 * A cookie readable by the page that says "this browser holds a refresh cookie" (the refresh
 * cookie itself is httpOnly and scoped to /api/auth). The app asks for a refresh only when it
 * is there: a visitor of /login who never signed in no longer gets a 401 in the console on
 * every load. It carries no secret; the server sets and clears it with the refresh cookie.
 */
export const SESSION_HINT_COOKIE = 'atendimento_sessao';

/** True when `cookieHeader` (document.cookie) has the hint. */
export function hasSessionHint(cookieHeader: string): boolean {
  return cookieHeader.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));
}
