export type BackoffOptions = { attempt: number; baseMs?: number; capMs?: number; random?: () => number };

/**
 * The wait before retry number `attempt` (0 for the first retry): doubling from `baseMs` up to `capMs`, of which
 * a random half is taken off so that many nodes that lost the control plane together do not return together.
 */
export const backoffDelay = ({ attempt, baseMs = 500, capMs = 30_000, random = Math.random }: BackoffOptions) => {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
};

/** Resolves after `ms`, or at once when the signal aborts. */
export const sleep = ({ ms, signal }: { ms: number; signal?: AbortSignal }) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
