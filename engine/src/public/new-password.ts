// Imported by its own path, not through the package index: the index is in every page's
// graph, so anything it re-exports would land in the sign-in page's chunks.
import { passwordProblem } from '@atendimento/schemas/password-policy';

/**
 * The server's password policy (schemas/src/password-policy.ts), checked before sending. A
 * module of its own: the policy's list of common passwords stays out of the sign-in page's
 * JavaScript (B10a, ≤ 200 kB), which only asks for a non-empty password.
 */
export function checkNewPassword(password: string, email?: string): string | null {
  return passwordProblem(password, { email });
}
