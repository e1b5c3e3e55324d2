/**
 * Writes values one at a time, newest wins: a value handed in while a write runs replaces any that waits, so a
 * burst of changes costs at most two writes. `flush()` resolves once nothing waits or runs.
 */
export const createLatestWriter = <T>({ write, onError }: { write: (value: T) => Promise<void>; onError: (err: Error) => void }) => {
  let waiting: { value: T } | undefined;
  let running: Promise<void> | undefined;

  const drain = async () => {
    while (waiting) {
      const { value } = waiting;
      waiting = undefined;
      await write(value).catch(onError);
    }
    running = undefined;
  };

  return {
    schedule: (value: T) => {
      waiting = { value };
      running ??= drain();
    },
    flush: () => running ?? Promise.resolve(),
  };
};
