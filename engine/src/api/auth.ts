import { publicMessages as messages, type AuthSession, type User } from '@atendimento/schemas';
import { api, ApiError } from './api';
import { session, STORAGE_KEYS } from './session';

/**
 * The sign-in screens' calls (seed 002 §7 "Authentication and profile"). They never toast:
 * each screen shows the error in its own alert, as the seed describes.
 */
function failure(error: unknown): Error {
  // Network failures and unexpected answers get the seed's generic text.
  if (error instanceof ApiError && error.status > 0) return error;
  console.error('auth call failed', error);
  return new Error(messages.auth.internalError);
}

async function sessionCall(path: string, body: unknown): Promise<User> {
  try {
    const answer = await api<{ data: AuthSession }>(path, { method: 'POST', body, notify: false, auth: false });
    session.set(answer.data);
    return answer.data.user;
  } catch (error) {
    throw failure(error);
  }
}

/** E-mail and password sign-in; the e-mail is trimmed (seed 002 §4). */
export function signIn(email: string, password: string): Promise<User> {
  return sessionCall('/api/auth/login', { email: email.trim(), password });
}

/** Public sign-up; the new user is signed in at once. */
export function signUp(input: { displayName: string; email: string; password: string; confirmPassword: string }): Promise<User> {
  return sessionCall('/api/users', { ...input, email: input.email.trim(), displayName: input.displayName.trim(), active: true, type: 'agent' });
}

/** Completes an e-mailed link at /finishSignUp with the e-mail it was sent to. */
export async function completeEmailLink(token: string, email: string): Promise<User> {
  const user = await sessionCall('/api/auth/email-link/complete', { token, email: email.trim() });
  localStorage.removeItem(STORAGE_KEYS.emailForSignIn);
  return user;
}

async function requestLink(path: string, email: string): Promise<string> {
  try {
    const answer = await api<{ data: { message: string } }>(path, { method: 'POST', body: { email: email.trim() }, notify: false, auth: false });
    // Remembered so /finishSignUp can complete the link without asking (seed 002 §2).
    localStorage.setItem(STORAGE_KEYS.emailForSignIn, email.trim());
    return answer.data.message;
  } catch (error) {
    throw failure(error);
  }
}

/** Sends the password-recovery link; resolves with 'Email enviado com sucesso!'. */
export function requestPasswordRecovery(email: string): Promise<string> {
  return requestLink('/api/auth/password-recovery', email);
}

/** Sends a one-time sign-in link. */
export function requestEmailLink(email: string): Promise<string> {
  return requestLink('/api/auth/email-link', email);
}

/** The e-mail a link was requested for on this browser, if any. */
export function rememberedEmail(): string | null {
  return localStorage.getItem(STORAGE_KEYS.emailForSignIn);
}

/**
 * Signs out: the server revokes the session and clears the refresh cookie; locally every
 * subscription closes (session.onSignOut hooks) and the user's local data goes.
 */
export async function signOut(): Promise<void> {
  await session.runBeforeSignOut();
  try {
    await api('/api/auth/logout', { method: 'POST', notify: false });
  } catch (error) {
    // Signing out must work offline too; the server session then simply expires.
    console.warn('logout call failed', error);
  }
  localStorage.removeItem(STORAGE_KEYS.emailForSignIn);
  session.clear();
}
