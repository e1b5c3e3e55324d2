import { createHash } from 'node:crypto';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { agentProtocol, Codes } from '@edgekeep/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { evaluateTraffic } from '../modules/traffic/state';
import type { StoredLine } from './store';

const unzip = promisify(gunzip);

/** A batch as sent (gzip) and as unpacked; the agent sends at most 2000 lines or about 1 MB per batch. */
export const MAX_BATCH_GZIP_BYTES = 4 * 1024 * 1024;
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
export const MAX_BATCH_LINES = 20_000;

/** The sites a node serves: those on products of its zone. */
const sitesOfZone = async (deps: AppDeps, zoneId: number) => {
  const rows = await deps.db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select('sites.id').where('products.zone_id', '=', zoneId).execute();
  return new Set(rows.map((r) => r.id));
};

const unpack = async (body: Buffer, encoding: string | undefined) => {
  if (encoding && encoding !== 'gzip' && encoding !== 'identity') throw new ApiError(Codes.Parameter, { extra: 'content-encoding must be gzip' });
  if (encoding !== 'gzip') return body;
  try {
    return await unzip(body, { maxOutputLength: MAX_BATCH_BYTES });
  } catch {
    throw new ApiError(Codes.Parameter, { status: 413, extra: `not gzip, or more than ${MAX_BATCH_BYTES} bytes unpacked` });
  }
};

/**
 * Keeps the lines of a batch that are valid records (contract `accessLogLine`) of a site the node serves. Lines
 * that are not, are dropped (answered as taken, so the agent does not send them forever).
 */
export const keepLines = ({ text, served }: { text: string; served: Set<number> }) => {
  const raw = text.split('\n').filter((l) => l.trim() !== '');
  if (raw.length > MAX_BATCH_LINES) throw new ApiError(Codes.ItemCountExceeded, { status: 413, extra: `at most ${MAX_BATCH_LINES} lines per batch` });
  const kept: StoredLine[] = [];
  for (const line of raw) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = agentProtocol.accessLogLine.safeParse(value);
    if (!parsed.success || parsed.data.siteId === null || !served.has(parsed.data.siteId)) continue;
    if (Number.isNaN(Date.parse(parsed.data.time))) continue;
    kept.push({ ...parsed.data, siteId: parsed.data.siteId, time: new Date(parsed.data.time).toISOString() });
  }
  return { kept, total: raw.length };
};

/**
 * POST /agent/v1/logs: a node's gzip NDJSON batch of access-log records into the analytics store. Answers
 * `accepted`, the number of lines read (stored or dropped), so the agent moves its offset past all of them.
 */
export function logIntake(app: FastifyInstance, deps: AppDeps, opts: { path: string; nodeOf: (req: FastifyRequest) => Promise<{ id: number; zone_id: number }> }) {
  app.register(async (scope) => {
    scope.addContentTypeParser(['application/x-ndjson', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_BATCH_GZIP_BYTES }, (_req, body, done) => done(null, body));
    scope.post(opts.path, { bodyLimit: MAX_BATCH_GZIP_BYTES }, async (req) => {
      const node = await opts.nodeOf(req);
      if (!Buffer.isBuffer(req.body)) throw new ApiError(Codes.Parameter, { extra: 'an application/x-ndjson body' });
      const text = (await unpack(req.body, req.headers['content-encoding'])).toString('utf8');
      const { kept, total } = keepLines({ text, served: await sitesOfZone(deps, node.zone_id) });
      if (kept.length) {
        const digest = createHash('sha256').update(text).digest('hex');
        await deps.analytics.ingest({ nodeId: node.id, digest, lines: kept });
        const siteIds = [...new Set(kept.map((l) => l.siteId))];
        await evaluateTraffic(deps, { siteIds }).catch((err: Error) => req.log.error({ err: err.message }, 'traffic evaluation failed'));
      }
      if (kept.length < total) req.log.debug({ nodeId: node.id, dropped: total - kept.length }, 'log lines dropped');
      return agentProtocol.logsResult.parse({ accepted: total });
    });
  });
}
