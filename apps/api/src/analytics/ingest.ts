import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { agentProtocol, Codes, type agentRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { registerNodeRoute } from '../http/route';
import { siteIdsOfZone } from '../modules/sites/repo';
import { countLines, lastTime } from './load';
import { BatchRefused } from './spool';
import type { L4Store } from './l4/types';

const unzip = promisify(gunzip);

/** A batch as sent (gzip) and as unpacked: twice what an agent sends at most (agentProtocol.LOG_BATCH_MAX). */
export const MAX_BATCH_GZIP_BYTES = 4 * 1024 * 1024;
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
export const MAX_BATCH_LINES = 20_000;

/**
 * How far to move a batch's line times: the API's clock less the node's as it sent the batch (header `x-sent-at`),
 * when they differ by LOG_CLOCK_SKEW_MIN_MS or more; otherwise (or without the header) 0.
 */
export const clockShift = (sentAt: string | string[] | undefined, now = Date.now()) => {
  const at = typeof sentAt === 'string' && /^\d{1,15}$/.test(sentAt) ? Number(sentAt) : undefined;
  if (at === undefined) return 0;
  const shift = now - at;
  return Math.abs(shift) >= agentProtocol.LOG_CLOCK_SKEW_MIN_MS ? shift : 0;
};

/** A batch refused for its size or its packing, as the catalogue says it (anything else as it came). */
const refused = (err: unknown): never => {
  if (!(err instanceof BatchRefused)) throw err;
  if (err.reason === 'lines') throw new ApiError(Codes.ItemCountExceeded, { status: 413, extra: `at most ${MAX_BATCH_LINES} lines per batch` });
  throw new ApiError(Codes.Parameter, { status: 413, extra: `not gzip, or more than ${MAX_BATCH_BYTES} bytes unpacked` });
};

const unpack = async (body: Buffer, encoding: string | undefined) => {
  if (encoding !== 'gzip') return body;
  return unzip(body, { maxOutputLength: MAX_BATCH_BYTES }).catch(() => refused(new BatchRefused('gzip')));
};

type Log = 'access' | 'stream';
/** The metrics of lines stored: how many, how many skipped, and the age of each batch's newest line then. */
const countStored = (deps: AppDeps, log: Log, { stored, skipped, newest }: { stored: number; skipped: number; newest: number[] }) => {
  deps.metrics.ingestLines.inc({ log, outcome: 'stored' }, stored);
  deps.metrics.ingestLines.inc({ log, outcome: 'skipped' }, skipped);
  if (stored) for (const time of newest) deps.metrics.ingestLag.observe({ log }, Math.max(0, (Date.now() - time) / 1000));
};

/**
 * POST /agent/v1/logs: a node's gzip NDJSON batch of access-log records into the analytics store, which keeps the
 * valid lines of the zone's sites not stored before (header `x-log-file` and each line's offset, else the batch's
 * digest). Answers `accepted`, the number of lines read (stored or skipped), so the agent moves its offset past all
 * of them. `ingest` takes another log kind's batches (the stream log's), stored before it answers.
 */
export function logIntake(app: FastifyInstance, deps: AppDeps, def: typeof agentRoutes.logs, ingest?: L4Store['ingest']) {
  const log: Log = ingest ? 'stream' : 'access';
  if (!ingest) {
    // access lines are stored after their batch is answered, when the store loads it
    const off = deps.analytics.onLoaded((loaded) => countStored(deps, log, loaded));
    app.addHook('onClose', async () => void off());
  }
  app.register(async (scope) => {
    scope.addContentTypeParser(['application/x-ndjson', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_BATCH_GZIP_BYTES }, (_req, body, done) => done(null, body));
    registerNodeRoute(scope, deps, def, async ({ req, node, body }) => {
      const encoding = req.headers['content-encoding'];
      if (encoding && encoding !== 'gzip' && encoding !== 'identity') throw new ApiError(Codes.Parameter, { extra: 'content-encoding must be gzip' });
      const header = req.headers[agentProtocol.LOG_FILE_HEADER];
      const file = typeof header === 'string' && header !== '' && header.length <= 256 ? header : undefined;
      // The sites a node serves: those on products of its zone.
      const served = await siteIdsOfZone(deps.db, node.zone_id);
      const shiftMs = clockShift(req.headers[agentProtocol.LOG_SENT_AT_HEADER]);
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      deps.metrics.ingestBatches.inc({ log });
      if (!ingest) {
        // unpacked as it is written to the spool: a batch is never held whole, unpacked, in memory
        const batch = { nodeId: node.id, file, ndjson: bytes, gzip: encoding === 'gzip', limits: { bytes: MAX_BATCH_BYTES, lines: MAX_BATCH_LINES }, served, shiftMs };
        return { accepted: (await deps.analytics.ingest(batch).catch(refused)).accepted };
      }
      const text = await unpack(bytes, encoding);
      if (countLines(text) > MAX_BATCH_LINES) throw refused(new BatchRefused('lines'));
      const { accepted, stored } = await ingest({ nodeId: node.id, file, ndjson: text, served, shiftMs });
      const newest = lastTime(text);
      countStored(deps, log, { stored, skipped: accepted - stored, newest: newest === undefined ? [] : [newest] });
      return { accepted };
    });
  });
}
