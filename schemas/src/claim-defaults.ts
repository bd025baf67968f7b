import type { AppConfig } from './domain';

/**
 * Tenant claims that are on while unset (seed: "remainInChat defaults to the tenant claim, true
 * if unset"). Every other claim is off until set. The settings screen shows and saves a claim
 * through {@link claimOn}, so what it shows is what the server applies.
 */
export const CLAIMS_ON_WHEN_UNSET: ReadonlySet<string> = new Set(['remainInChat']);

/** A tenant claim's effective value. */
export function claimOn(claims: AppConfig['claims'] | undefined, claim: string): boolean {
  const value = claims?.[claim];
  return value === undefined || value === null ? CLAIMS_ON_WHEN_UNSET.has(claim) : Boolean(value);
}
