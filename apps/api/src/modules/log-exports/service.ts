import fs from 'node:fs';
import { Codes, logSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { fileStamp } from '../../lib/csv';
import { findAccount } from '../accounts/repo';
import { lineFilter } from '../logs/service';
import { exportFile, type StoredFilter } from './job';
import { claimRun, toItem } from './repo';
import type { ExportRunner } from './runner';

const { LOG_EXPORT_CONCURRENT_MAX, LOG_EXPORT_RESET_HOUR_UTC } = logSchemas;
const DAY_MS = 86_400_000;

const own = (deps: AppDeps, principal: Principal) => deps.db.selectFrom('log_exports').selectAll().where('account_id', '=', principal.accountId);

/** The caller's exports of these ids; one that is not its own answers like a missing one. */
async function ownExports(deps: AppDeps, principal: Principal, ids: number[]) {
  const rows = await own(deps, principal).where('id', 'in', ids).execute();
  if (rows.length < new Set(ids).size) throw notFound('export');
  return rows;
}

async function assertConcurrency(deps: AppDeps, principal: Principal, adding: number) {
  const running = await own(deps, principal).clearSelect().select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'processing').executeTakeFirst();
  if (toCount(running?.n as number) + adding > LOG_EXPORT_CONCURRENT_MAX) {
    throw new ApiError(Codes.ConcurrentExportLimit, { num: LOG_EXPORT_CONCURRENT_MAX, extra: { max: LOG_EXPORT_CONCURRENT_MAX } });
  }
}

/** The last daily reset of the export count, and the next. */
function resetTimes(at = Date.now()) {
  const day = new Date(at);
  let last = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), LOG_EXPORT_RESET_HOUR_UTC);
  if (last > at) last -= DAY_MS;
  return { last: new Date(last).toISOString(), next: new Date(last + DAY_MS).toISOString() };
}

async function assertDailyCount(deps: AppDeps, principal: Principal) {
  const account = await findAccount(deps.db, principal.accountId);
  if (!account) throw notFound('account');
  const reset = resetTimes();
  const applied = await own(deps, principal).clearSelect().select((eb) => eb.fn.countAll().as('n')).where('created_at', '>=', reset.last).executeTakeFirst();
  if (toCount(applied?.n as number) >= account.max_log_export_times) {
    throw new ApiError(Codes.DailyExportLimit, { num: account.max_log_export_times, extra: { max: account.max_log_export_times, resetAt: reset.next } });
  }
}

export async function applyExport(deps: AppDeps, runner: ExportRunner, principal: Principal, body: logSchemas.ExportApplyBody) {
  const { from: _f, to: _t, blockedOnly: _b, ...filter } = await lineFilter(deps, principal, body);
  await assertConcurrency(deps, principal, 1);
  await assertDailyCount(deps, principal);
  const start = new Date(body.startTime);
  const end = new Date(body.endTime);
  const row = await deps.db
    .insertInto('log_exports')
    .values({
      account_id: principal.accountId,
      tier: principal.tier === 'client' ? 'client' : 'user',
      type: body.type,
      status: 'processing',
      filters: JSON.stringify(body.type === 'audit' ? {} : (filter satisfies StoredFilter)),
      start_time: start.toISOString(),
      end_time: end.toISOString(),
      created_at: now(),
      finished_at: null,
      rows: 0,
      total_rows: null,
      size: 0,
      file_name: `${body.type}-log-${fileStamp(start)}-${fileStamp(end)}.csv.gz`,
      error: null,
      attempt: 1,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  runner.start({ id: row.id, attempt: 1 });
  return toItem(row);
}

export async function listExports(deps: AppDeps, principal: Principal, query: z.infer<typeof logSchemas.exportsQuery>) {
  let q = own(deps, principal);
  if (query.type) q = q.where('type', '=', query.type);
  const page = await paginate(q, {
    page: query,
    sortable: { createdAt: 'created_at', startTime: 'start_time', status: 'status', type: 'type', size: 'size' },
    defaultSort: { column: 'created_at', order: 'desc' },
  });
  return { data: page.data.map(toItem), total: page.total };
}

export async function getExport(deps: AppDeps, principal: Principal, id: number) {
  return toItem((await ownExports(deps, principal, [id]))[0]);
}

/** A completed export's file, to stream. */
export async function exportDownload(deps: AppDeps, principal: Principal, id: number) {
  const [row] = await ownExports(deps, principal, [id]);
  if (row.status !== 'completed') throw new ApiError(Codes.Parameter, { extra: `the export is ${row.status}, not completed` });
  return { stream: fs.createReadStream(exportFile(deps, id)), fileName: row.file_name };
}

/** Deleting, then deleted once the file is gone; the row stays for the list. A running export stops. */
export async function removeExports(deps: AppDeps, principal: Principal, ids: number[]) {
  const rows = await ownExports(deps, principal, ids);
  for (const row of rows.filter((r) => r.status !== 'deleted')) {
    await deps.db.updateTable('log_exports').set({ status: 'deleting' }).where('id', '=', row.id).execute();
    fs.rmSync(exportFile(deps, row.id), { force: true });
    await deps.db.updateTable('log_exports').set({ status: 'deleted', finished_at: row.finished_at ?? now() }).where('id', '=', row.id).execute();
  }
}

/** Failed exports run again from scratch; the others stay as they are. */
export async function retryExports(deps: AppDeps, runner: ExportRunner, principal: Principal, ids: number[]) {
  const rows = await ownExports(deps, principal, ids);
  const failed = rows.filter((r) => r.status === 'failed');
  await assertConcurrency(deps, principal, failed.length);
  for (const row of failed) {
    const attempt = await claimRun(deps.db, row);
    if (attempt) runner.start({ id: row.id, attempt });
  }
  return (await own(deps, principal).where('id', 'in', ids).orderBy('id').execute()).map(toItem);
}
