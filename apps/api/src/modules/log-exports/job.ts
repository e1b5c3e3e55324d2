import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { accountSchemas, logSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import type { LineFilter } from '../../analytics/types';
import { now, toCount } from '../../db';
import { readJson } from '../../db/json-column';
import type { AppDeps } from '../../deps';
import { csvLine } from '../../lib/csv';
import { auditRepo } from '../audit/repo';
import { auditItem } from '../audit/service';
import { accessItem, wafItem } from '../logs/service';
import { failRun, findExport, ownedBy, type ExportRow } from './repo';

/** Lines read into memory (and written to the file) at a time; the row's progress moves once per chunk. */
const CHUNK = 1000;

/** A run that lost its export (deleted, or taken over by a newer run) stops without touching the row. */
class Superseded extends Error {}

export const exportsDir = (deps: AppDeps) => path.join(deps.config.dataDir, 'exports');
export const exportFile = (deps: AppDeps, id: number) => path.join(exportsDir(deps), `${id}.csv.gz`);
/** Where a run writes until the file is complete. */
export const partFile = (deps: AppDeps, run: { id: number; attempt: number }) => path.join(exportsDir(deps), `${run.id}.${run.attempt}.part`);

/** The line filter an export stores: the log query's, with the caller's sites resolved when it was asked for. */
const storedFilter = z.object({
  siteIds: z.array(z.number().int()),
  domains: z.array(z.string()).optional(),
  clientIp: z.string().optional(),
  cacheStatus: z.string().optional(),
  uri: z.string().optional(),
  status: z.number().int().optional(),
}) satisfies z.ZodType<Omit<LineFilter, 'from' | 'to' | 'blockedOnly'>>;
export type StoredFilter = z.infer<typeof storedFilter>;

type Source = { columns: string[]; count: () => Promise<number>; chunks: () => AsyncIterable<Record<string, unknown>[]> };

function lineSource(deps: AppDeps, row: ExportRow): Source {
  const waf = row.type === 'waf';
  const filter: LineFilter = { ...readJson('log_exports.filters', storedFilter, row.filters), from: new Date(row.start_time), to: new Date(row.end_time), blockedOnly: waf || undefined };
  const item = waf ? wafItem : accessItem;
  return {
    columns: Object.keys((waf ? logSchemas.wafLogItem : logSchemas.accessLogItem).shape),
    count: () => deps.analytics.countLines(filter),
    async *chunks() {
      for await (const lines of deps.analytics.streamLines(filter, { chunk: CHUNK })) yield lines.map(item);
    },
  };
}

/** The operation log the account reads, of the window, newest first, paged by id. */
function auditSource(deps: AppDeps, row: ExportRow): Source {
  const scope = () => auditRepo(deps.db, { accountId: row.account_id, tier: row.tier }).lines({ startTime: row.start_time }).where('created_at', '<', row.end_time);
  return {
    columns: Object.keys(accountSchemas.auditItem.shape),
    count: async () => toCount((await scope().clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n as number),
    async *chunks() {
      for (let before: number | undefined; ; ) {
        let q = scope().orderBy('id', 'desc').limit(CHUNK);
        if (before !== undefined) q = q.where('id', '<', before);
        const rows = await q.execute();
        if (!rows.length) return;
        yield rows.map(auditItem);
        before = rows[rows.length - 1].id;
      }
    },
  };
}

/**
 * One run of an export: counts the lines, streams them as CSV through gzip into a part file (the file's
 * backpressure paces the reads), moves the row's progress every chunk, and renames the file into place once
 * complete. A failure marks the export failed; a stop (signal) leaves it processing for the next start.
 */
export async function runExport(deps: AppDeps, run: { id: number; attempt: number; signal: AbortSignal }) {
  const row = await findExport(deps.db, run.id);
  if (!row || row.attempt !== run.attempt || row.status !== 'processing') return;
  fs.mkdirSync(exportsDir(deps), { recursive: true });
  const part = partFile(deps, run);
  const file = exportFile(deps, run.id);
  try {
    const source = row.type === 'audit' ? auditSource(deps, row) : lineSource(deps, row);
    await ownedBy(deps.db, run).set({ total_rows: await source.count() }).execute();
    let written = 0;
    async function* csv() {
      yield csvLine(source.columns);
      for await (const items of source.chunks()) {
        yield items.map((item) => csvLine(source.columns.map((c) => item[c]))).join('');
        written += items.length;
        const moved = await ownedBy(deps.db, run).set({ rows: written }).executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) throw new Superseded();
      }
    }
    await pipeline(Readable.from(csv()), createGzip(), fs.createWriteStream(part), { signal: run.signal });
    fs.renameSync(part, file);
    const done = await ownedBy(deps.db, run).set({ status: 'completed', rows: written, size: fs.statSync(file).size, finished_at: now() }).executeTakeFirst();
    if (!Number(done.numUpdatedRows) && (await findExport(deps.db, run.id))?.status !== 'completed') fs.rmSync(file, { force: true });
  } catch (err) {
    fs.rmSync(part, { force: true });
    if (run.signal.aborted || err instanceof Superseded) return;
    deps.log.error({ err, exportId: run.id }, 'log export failed');
    await failRun(deps.db, run, (err as Error).message);
  }
}
