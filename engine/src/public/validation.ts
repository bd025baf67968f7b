import { publicMessages as messages } from '@atendimento/schemas';

/** Field checks of seed 002 §5, with its exact messages; each returns the message or null. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const v = messages.validation;

export function checkEmail(email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return v.emailRequired;
  return EMAIL_PATTERN.test(trimmed) ? null : v.emailInvalid;
}

export function checkSignInPassword(password: string): string | null {
  return password ? null : v.passwordRequired;
}

export function checkConfirmation(password: string, confirmation: string): string | null {
  if (!confirmation) return v.confirmRequired;
  return confirmation === password ? null : v.passwordsDiffer;
}

export function checkDisplayName(name: string): string | null {
  return name.trim() ? null : v.displayNameRequired;
}

/** Drops the fields without an error; an empty object means the form is valid. */
export function errorsOf<K extends string>(checks: Record<K, string | null>): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(checks) as K[]) {
    const message = checks[key];
    if (message) errors[key] = message;
  }
  return errors;
}
