/**
 * Writes values one at a time, newest wins: a value handed in while a write runs or waits replaces the one that
 * waits, so a burst of changes costs at most two writes. `intervalMs`: a write starts at least that long after the
 * one before ended, so that a steady stream of changes is written every `intervalMs`, not after each change; a value
 * after a quiet spell is written at once. `flush()` writes what waits at once and resolves once nothing waits or runs.
 */
export const createLatestWriter = <T>({ write, onError, intervalMs = 0 }: { write: (value: T) => Promise<void>; onError: (err: Error) => void; intervalMs?: number }) => {
  let waiting: { value: T } | undefined;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastEnded = -Infinity;

  const drain = async () => {
    while (waiting) {
      const { value } = waiting;
      waiting = undefined;
      await write(value).catch(onError);
      lastEnded = Date.now();
    }
    running = undefined;
  };
  const start = () => {
    clearTimeout(timer);
    timer = undefined;
    running ??= drain();
  };

  return {
    schedule: (value: T) => {
      waiting = { value };
      if (running || timer) return;
      const wait = lastEnded + intervalMs - Date.now();
      if (wait <= 0) start();
      else timer = setTimeout(start, wait);
    },
    flush: () => {
      if (timer) start();
      return running ?? Promise.resolve();
    },
  };
};
