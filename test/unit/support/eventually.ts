// The one polling helper of the test suites (the unit suite and the extension-host suite), for state that
// changes a moment after the effect a test can see: the server's connection count, a card's status, a
// diagnostic. Event-driven waits (WsClient.until) stay where they are.

export interface EventuallyOptions {
  /** How long to keep trying before failing; 10 s by default. */
  timeoutMs?: number;
  /** How long to wait between two tries; 10 ms by default. */
  intervalMs?: number;
  /** What was awaited, for the timeout's message ("the approval card", …). */
  message?: string;
}

type Truthy<T> = Exclude<T, undefined | null | false | 0 | ''>;

/**
 * Calls `check` every `intervalMs` until it returns (or resolves to) a truthy value, and resolves with that
 * value. A `check` that throws counts as "not yet"; its last error is named if the time runs out. After
 * `timeoutMs` it rejects with `timed out after N ms waiting for MESSAGE`.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 10, message = 'the condition' }: EventuallyOptions = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
