import type { Logger } from 'pino';
import type { AnalyticsStore } from './analytics/types';
import type { Config } from './config';
import type { Db, Dialect } from './db';
import type { Scheduler } from './jobs/scheduler';
import type { Mailer } from './lib/mailer';
import type { Metrics } from './metrics/metrics';
import type { RevisionBus } from './lib/revisions';
import type { Secrets } from './lib/secrets';

/** What every module's service is given; nothing reaches for globals. */
export type AppDeps = {
  db: Db;
  dialect: Dialect;
  config: Config;
  secrets: Secrets;
  mailer: Mailer;
  log: Logger;
  revisions: RevisionBus;
  /** The access-log analytics store (DuckDB file in DATA_DIR, opened on first use). */
  analytics: AnalyticsStore;
  /** Periodic work, run once per period across API instances (a lease per job in the database). */
  scheduler: Scheduler;
  /** Prometheus metrics of this instance (served on METRICS_PORT). */
  metrics: Metrics;
};
