import argon2 from 'argon2';

/**
 * argon2id with OWASP's minimum recommended parameters (m=19 MiB, t=2, p=1): about 50 ms on
 * one core here, slow enough for offline guessing, fast enough for login bursts.
 */
export const ARGON2_PARAMS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with weaker parameters and should be re-hashed at login. */
export function needsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, ARGON2_PARAMS);
  } catch {
    return true;
  }
}

/**
 * A fixed hash to verify against when the account does not exist, so unknown e-mails take as
 * long as wrong passwords and timing does not reveal which accounts exist.
 */
let decoyHash: Promise<string> | null = null;
export function decoyVerify(password: string): Promise<boolean> {
  decoyHash ??= hashPassword('decoy-password-never-valid');
  return decoyHash.then((hash) => verifyPassword(hash, password)).then(() => false);
}
