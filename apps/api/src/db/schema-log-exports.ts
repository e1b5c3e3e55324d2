import type { logSchemas } from '@edgekeep/contract';
import type { ColumnType, Generated } from 'kysely';

/** PostgreSQL answers bigint columns as text; they are read through `toCount`. */
type BigCount = ColumnType<number | string, number | undefined, number>;

export type LogExportTables = { log_exports: LogExportTable };
export type LogExportTable = {
  id: Generated<number>;
  account_id: number;
  tier: 'user' | 'client';
  type: (typeof logSchemas.EXPORT_TYPES)[number];
  status: (typeof logSchemas.EXPORT_STATUSES)[number];
  /** JSON of the export's line filter (sites resolved when it was asked for) without its window. */
  filters: string;
  start_time: string;
  end_time: string;
  created_at: string;
  finished_at: string | null;
  rows: BigCount;
  total_rows: ColumnType<number | string | null, number | null, number | null>;
  size: BigCount;
  file_name: string;
  error: string | null;
  /** Bumped by every run (start, retry, resume); a run that no longer holds the latest attempt stops. */
  attempt: Generated<number>;
};
