import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db';
import type { Metrics } from '../metrics/metrics';
import { claimLease, ensureLease, finishLease } from './repo';

export type Job = {
  /** Unique and stable: the lease row's key. */
  name: string;
  /** How often the job is due, across all API instances together. */
  everyMs: number;
  /** How long a run may hold the job before another instance may take it over (default: twice the period, at least a minute). */
  leaseMs?: number;
  run: () => Promise<unknown>;
};

export type Scheduler = {
  /** Registers a periodic job; it starts with `start()` (the app's ready hook). */
  every(job: Job): void;
  start(): Promise<void>;
  /** Stops the timers and waits a while for the runs in progress (their leases lapse if they outlast it). */
  stop(): Promise<void>;
  /** Runs a job now if no instance holds it (tests, and actions that want the work done at once); true if it ran. */
  runNow(name: string): Promise<boolean>;
};

const iso = (ms: number) => new Date(ms).toISOString();
/** How long stopping waits for runs in progress: a shutdown is not held up by a job waiting on the network. */
const STOP_WAIT_MS = 5000;

/**
 * One scheduler for all periodic work. Each job has a lease row in the database: an instance runs the job only when
 * the job is due and no live lease holds it, and claiming sets the next due time, so several API instances on one
 * database run each job once per period; when the holder dies its lease lapses and another instance takes over.
 */
export function createScheduler({ db, log, metrics }: { db: Db; log: Logger; metrics?: Pick<Metrics, 'jobRuns' | 'jobDuration'> }): Scheduler {
  const holder = randomUUID();
  const jobs = new Map<string, Job>();
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<string, Promise<void>>();
  let started = false;
  let stopping: Promise<void> | undefined;

  async function claim(job: Job, now: number, ignoreDue: boolean) {
    const leaseMs = job.leaseMs ?? Math.max(2 * job.everyMs, 60_000);
    return claimLease(db, { name: job.name, holder, at: iso(now), until: iso(now + leaseMs), nextDue: iso(now + job.everyMs), ignoreDue });
  }

  async function execute(job: Job) {
    let error: string | null = null;
    const timer = metrics?.jobDuration.startTimer({ job: job.name });
    try {
      await job.run();
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      log.error({ job: job.name, err: error }, 'job failed');
    }
    timer?.();
    metrics?.jobRuns.inc({ job: job.name, outcome: error ? 'failed' : 'ok' });
    await finishLease(db, { name: job.name, holder, at: iso(Date.now()), error });
  }

  async function tick(job: Job, ignoreDue = false) {
    if (running.has(job.name)) return false;
    let claimed: boolean;
    try {
      claimed = await claim(job, Date.now(), ignoreDue);
    } catch (err) {
      if (started) log.error({ job: job.name, err: (err as Error).message }, 'job lease claim failed');
      return false;
    }
    if (!claimed) return false;
    const run = execute(job).finally(() => running.delete(job.name));
    running.set(job.name, run);
    await run;
    return true;
  }

  return {
    every(job) {
      if (jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      jobs.set(job.name, job);
    },
    async start() {
      if (started) return;
      started = true;
      stopping = undefined;
      for (const job of jobs.values()) {
        await ensureLease(db, job.name);
        const timer = setInterval(() => void tick(job), job.everyMs);
        timer.unref();
        timers.push(timer);
      }
    },
    stop() {
      started = false;
      for (const t of timers.splice(0)) clearInterval(t);
      return (stopping ??= (async () => {
        let waited: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(running.values()), new Promise((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
        clearTimeout(waited);
      })());
    },
    async runNow(name) {
      const job = jobs.get(name);
      if (!job) throw new Error(`no job named ${name}`);
      await ensureLease(db, name);
      return tick(job, true);
    },
  };
}
