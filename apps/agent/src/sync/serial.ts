/** Runs the given tasks one at a time, in the order they were handed in. */
export const createSerial = () => {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
};

export type Serial = ReturnType<typeof createSerial>;
