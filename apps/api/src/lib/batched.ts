/**
 * Calls made close together, run together: the first call waits `waitMs` for others (up to `max` in all), then `run`
 * takes them at once and answers each in its place, a value or an Error (that call alone fails). When `run` itself
 * fails, every call of the batch fails with it. Calls made while a batch runs make the next one.
 */
export function batched<T, R>(run: (items: T[]) => Promise<(R | Error)[]>, { waitMs, max }: { waitMs: number; max: number }) {
  type Call = { item: T; resolve: (value: R) => void; reject: (err: unknown) => void };
  let pending: Call[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const calls = pending;
    pending = [];
    run(calls.map((c) => c.item)).then(
      (answers) => calls.forEach((c, i) => (answers[i] instanceof Error ? c.reject(answers[i]) : c.resolve(answers[i] as R))),
      (err: unknown) => calls.forEach((c) => c.reject(err)),
    );
  };

  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (pending.length >= max) flush();
      else timer ??= setTimeout(flush, waitMs);
    });
}
