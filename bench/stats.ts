/** The value below which `p` percent of the samples fall (nearest rank). */
export const percentile = ({ samples, p }: { samples: number[]; p: number }) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
};

export const ms = (n: number) => `${n.toFixed(1)} ms`;

/** p50 / p99 / max of a set of latencies, in one line. */
export const summary = ({ samples }: { samples: number[] }) =>
  `p50 ${ms(percentile({ samples, p: 50 }))} · p99 ${ms(percentile({ samples, p: 99 }))} · max ${ms(Math.max(...samples))} (n=${samples.length})`;

export const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** Polls `probe` as fast as it answers until it returns true; the time from `since` to that answer. */
export const until = async ({ what, probe, since, timeoutMs = 60_000 }: { what: string; probe: () => Promise<boolean>; since: number; timeoutMs?: number }) => {
  for (;;) {
    if (await probe().catch(() => false)) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(1);
  }
};
