import type { Generated } from 'kysely';

export type JobTables = { job_leases: JobLeaseTable };
/** Timestamps are ISO strings (they compare in time order); '' is "never". */
export type JobLeaseTable = {
  name: string;
  holder: Generated<string>;
  lease_until: Generated<string>;
  next_due: Generated<string>;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
  runs: Generated<number>;
  failures: Generated<number>;
};
