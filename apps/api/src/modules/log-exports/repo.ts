import type { Selectable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import type { LogExportTable } from '../../db/schema-log-exports';

export type ExportRow = Selectable<LogExportTable>;

export const findExport = (db: Db, id: number) => db.selectFrom('log_exports').selectAll().where('id', '=', id).executeTakeFirst();

/** The export as the API shows it. */
export function toItem(r: ExportRow) {
  const rows = toCount(r.rows);
  const totalRows = r.total_rows === null ? null : toCount(r.total_rows);
  return {
    id: r.id,
    type: r.type,
    status: r.status,
    startTime: r.start_time,
    endTime: r.end_time,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    rows,
    totalRows,
    progress: r.status === 'completed' ? 100 : totalRows ? Math.floor((rows * 100) / totalRows) : 0,
    size: toCount(r.size),
    fileName: r.file_name,
    error: r.error,
  };
}

/** A run's writes: only while the export is processing under that run's attempt. */
export const ownedBy = (db: Db, run: { id: number; attempt: number }) =>
  db.updateTable('log_exports').where('id', '=', run.id).where('attempt', '=', run.attempt).where('status', '=', 'processing');

/**
 * Takes an export for a new run from scratch (a retry of a failed one, or one a stopped instance left
 * processing); answers the run's attempt, or undefined when another instance took it first.
 */
export async function claimRun(db: Db, row: Pick<ExportRow, 'id' | 'attempt' | 'status'>) {
  const attempt = row.attempt + 1;
  const res = await db
    .updateTable('log_exports')
    .set({ status: 'processing', attempt, rows: 0, total_rows: null, size: 0, error: null, finished_at: null })
    .where('id', '=', row.id)
    .where('attempt', '=', row.attempt)
    .where('status', '=', row.status)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) ? attempt : undefined;
}

export const failRun = (db: Db, run: { id: number; attempt: number }, error: string) =>
  ownedBy(db, run).set({ status: 'failed', error, finished_at: now() }).execute();
