/**
 * The one poll of the test suites. Tests act on conditions, not on time: `until` polls a check until
 * it yields a value (anything but undefined or false) and fails with what was awaited when the
 * deadline passes. The deadline only bounds a broken run; a passing run never waits for it. Polls
 * every 50 ms.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
