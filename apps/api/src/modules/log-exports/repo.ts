import type { PageQuery } from '@edgekeep/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { LogExportTable } from '../../db/schema-log-exports';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';

export type ExportRow = Selectable<LogExportTable>;

/** Unscoped, for a run: the export it runs. */
export const findExport = (db: Db, id: number) => db.selectFrom('log_exports').selectAll().where('id', '=', id).executeTakeFirst();

/** Unscoped, for the runner's start: every export left processing, whoever asked for it. */
export const processingExports = (db: Db) =>
  db.selectFrom('log_exports').select(['id', 'type', 'attempt', 'status', 'start_time']).where('status', '=', 'processing').execute();

/** Unscoped, for the runner's start: fails an export a stopped instance left at this attempt. */
export const failLeftRun = (db: Db, run: { id: number; attempt: number }, error: string) =>
  db.updateTable('log_exports').set({ status: 'failed', finished_at: now(), error }).where('id', '=', run.id).where('attempt', '=', run.attempt).execute();

/**
 * The caller's own exports: another account's export answers 101003/404 ("export not found") as if it did not
 * exist, and no change reaches it.
 */
export function logExportsRepo(db: Db, principal: Principal) {
  const own = () => db.selectFrom('log_exports').selectAll().where('account_id', '=', principal.accountId);
  const count = async (q: ReturnType<typeof own>) => toCount((await q.clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n as number);
  const setStatus = (id: number, values: Pick<Updateable<LogExportTable>, 'status' | 'finished_at'>) =>
    db.updateTable('log_exports').set(values).where('id', '=', id).where('account_id', '=', principal.accountId).execute();
  return {
    /** The exports of these ids, all the caller's, or 101003/404. */
    async get(ids: number[]) {
      const rows = await own().where('id', 'in', ids).execute();
      if (rows.length < new Set(ids).size) throw notFound('export');
      return rows;
    },

    /** Those of the exports of these ids that are the caller's, by id. */
    some: (ids: number[]) => own().where('id', 'in', ids).orderBy('id').execute(),

    page: (query: PageQuery & { type?: ExportRow['type'] }) =>
      paginate(query.type ? own().where('type', '=', query.type) : own(), {
        page: query,
        sortable: { createdAt: 'created_at', startTime: 'start_time', status: 'status', type: 'type', size: 'size' },
        defaultSort: { column: 'created_at', order: 'desc' },
      }),

    processingCount: () => count(own().where('status', '=', 'processing')),

    /** How many exports the caller asked for since `since`. */
    countSince: (since: string) => count(own().where('created_at', '>=', since)),

    /** A new export of the caller, processing its first attempt. */
    create: (values: Pick<Insertable<LogExportTable>, 'tier' | 'type' | 'filters' | 'start_time' | 'end_time' | 'file_name'>) =>
      db
        .insertInto('log_exports')
        .values({ ...values, account_id: principal.accountId, status: 'processing', created_at: now(), finished_at: null, rows: 0, total_rows: null, size: 0, error: null, attempt: 1 })
        .returningAll()
        .executeTakeFirstOrThrow(),

    markDeleting: (id: number) => setStatus(id, { status: 'deleting' }),
    markDeleted: (row: ExportRow) => setStatus(row.id, { status: 'deleted', finished_at: row.finished_at ?? now() }),
  };
}

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
