import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { lane, startTestApp, type TestApp } from '../../test/harness';
import { createScheduler, type Scheduler } from './scheduler';

/** A run that lasts until the test lets it finish. */
function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

lane('job scheduler (two instances on one database)', () => {
  let t: TestApp;
  const made: Scheduler[] = [];
  const instance = () => {
    const s = createScheduler({ db: t.deps.db, log: t.deps.log });
    made.push(s);
    return s;
  };
  const lease = (name: string) => t.deps.db.selectFrom('job_leases').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all(made.map((s) => s.stop()));
    await t.close();
  });

  it('runs a job on one instance while the other finds it held', async () => {
    const [a, b] = [instance(), instance()];
    const { gate, open } = gated();
    let runs = 0;
    const job = { name: 'held', everyMs: 60_000, run: async () => (runs++, gate) };
    a.every(job);
    b.every(job);
    const first = a.runNow('held');
    await vi.waitFor(() => expect(runs).toBe(1));
    expect(await b.runNow('held')).toBe(false);
    open();
    expect(await first).toBe(true);
    expect(await lease('held')).toMatchObject({ runs: 1, failures: 0, last_error: null });
    expect(await b.runNow('held')).toBe(true);
    expect(runs).toBe(2);
  });

  it('lets another instance take over a job whose holder stopped answering (its lease lapsed)', async () => {
    const [a, b] = [instance(), instance()];
    const stuck = gated();
    let runs = 0;
    a.every({ name: 'lapsed', everyMs: 60_000, leaseMs: 1, run: async () => (runs++, stuck.gate) });
    b.every({ name: 'lapsed', everyMs: 60_000, run: async () => void runs++ });
    void a.runNow('lapsed');
    await vi.waitFor(() => expect(runs).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await b.runNow('lapsed')).toBe(true);
    expect(runs).toBe(2);
    stuck.open();
  });

  it('records a failing run and runs the job again later', async () => {
    const a = instance();
    let fail = true;
    a.every({ name: 'flaky', everyMs: 60_000, run: async () => {
      if (fail) throw new Error('origin unreachable');
    } });
    expect(await a.runNow('flaky')).toBe(true);
    expect(await lease('flaky')).toMatchObject({ runs: 1, failures: 1, last_error: 'origin unreachable' });
    fail = false;
    expect(await a.runNow('flaky')).toBe(true);
    expect(await lease('flaky')).toMatchObject({ runs: 2, failures: 1, last_error: null });
  });

  it('runs a periodic job once per period across instances, not once per instance', async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    const everyMs = 100;
    let runs = 0;
    for (const s of [a, b, c]) s.every({ name: 'periodic', everyMs, run: async () => void runs++ });
    const started = Date.now();
    await Promise.all([a.start(), b.start(), c.start()]);
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    await Promise.all([a.stop(), b.stop(), c.stop()]);
    // Each claim moves the due time a period ahead, so the runs never outnumber the periods elapsed (three
    // instances each running on their own timer would make about three times as many).
    expect(runs).toBeLessThanOrEqual(Math.floor((Date.now() - started) / everyMs) + 1);
  });
});
