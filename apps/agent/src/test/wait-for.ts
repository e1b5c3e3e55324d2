/** Polls `check` until it answers something other than undefined/false, or fails with `what` after `timeoutMs`. */
export const waitFor = async <T>({ check, what, timeoutMs = 20_000 }: { check: () => T | undefined | false | Promise<T | undefined | false>; what: string; timeoutMs?: number }) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
