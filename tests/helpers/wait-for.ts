/**
 * Polls until `check` returns something truthy and answers it; throws naming `what` after
 * `timeoutMs`. The one way tests wait for something observable (a row, a frame, a request a
 * local provider received) instead of sleeping.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`waitFor: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
