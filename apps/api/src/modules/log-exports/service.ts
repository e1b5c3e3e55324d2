import fs from 'node:fs';
import { Codes, logSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { fileStamp } from '../../lib/csv';
import { findAccount } from '../accounts/repo';
import { lineFilter } from '../logs/service';
import { exportFile, type StoredFilter } from './job';
import { claimRun, logExportsRepo, toItem } from './repo';
import type { ExportRunner } from './runner';

const { LOG_EXPORT_CONCURRENT_MAX, LOG_EXPORT_RESET_HOUR_UTC } = logSchemas;
const DAY_MS = 86_400_000;

/** The caller's exports of these ids; one that is not its own answers like a missing one. */
const ownExports = (deps: AppDeps, principal: Principal, ids: number[]) => logExportsRepo(deps.db, principal).get(ids);

async function assertConcurrency(deps: AppDeps, principal: Principal, adding: number) {
  if ((await logExportsRepo(deps.db, principal).processingCount()) + adding > LOG_EXPORT_CONCURRENT_MAX) {
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
  if ((await logExportsRepo(deps.db, principal).countSince(reset.last)) >= account.max_log_export_times) {
    throw new ApiError(Codes.DailyExportLimit, { num: account.max_log_export_times, extra: { max: account.max_log_export_times, resetAt: reset.next } });
  }
}

export async function applyExport(deps: AppDeps, runner: ExportRunner, principal: Principal, body: logSchemas.ExportApplyBody) {
  const { from: _f, to: _t, blockedOnly: _b, ...filter } = await lineFilter(deps, principal, body);
  await assertConcurrency(deps, principal, 1);
  await assertDailyCount(deps, principal);
  const start = new Date(body.startTime);
  const end = new Date(body.endTime);
  const row = await logExportsRepo(deps.db, principal).create({
    tier: principal.tier === 'client' ? 'client' : 'user',
    type: body.type,
    filters: JSON.stringify(body.type === 'audit' ? {} : (filter satisfies StoredFilter)),
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    file_name: `${body.type}-log-${fileStamp(start)}-${fileStamp(end)}.csv.gz`,
  });
  runner.start({ id: row.id, attempt: 1 });
  return toItem(row);
}

export async function listExports(deps: AppDeps, principal: Principal, query: z.infer<typeof logSchemas.exportsQuery>) {
  const page = await logExportsRepo(deps.db, principal).page(query);
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
  const exports = logExportsRepo(deps.db, principal);
  for (const row of (await exports.get(ids)).filter((r) => r.status !== 'deleted')) {
    await exports.markDeleting(row.id);
    fs.rmSync(exportFile(deps, row.id), { force: true });
    await exports.markDeleted(row);
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
  return (await logExportsRepo(deps.db, principal).some(ids)).map(toItem);
}
