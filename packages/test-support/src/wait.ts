export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value (not undefined/null/false), or fails after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | null | false, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await sleep(25);
  }
}
