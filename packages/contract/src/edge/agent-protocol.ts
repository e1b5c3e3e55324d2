import { z } from 'zod';

/**
 * The edge agent's protocol with the control plane, under `/agent/v1`. Every call but `enroll` carries
 * `Authorization: Node <credential>`: a per-node secret, revocable, that only ever yields its own zone's state.
 */
export const AGENT_BASE = '/agent/v1';
/** A watch answers at once when the revision moved past `since`, else after about this long. */
export const WATCH_SECONDS = 30;

/** POST /agent/v1/enroll: the one-time token from the console's enrolment dialog, traded once for credentials. */
export const enrollBody = z.object({
  token: z.string().min(16).max(256),
  hostname: z.string().max(253),
  version: z.string().max(64),
});
export const enrollResult = z.object({ nodeId: z.number().int(), nodeUID: z.string(), credential: z.string() });

/**
 * GET /agent/v1/watch?since=REV[&base=ETAG] → the newest revision of the node's desired state, and whether actions are
 * queued for the node (`commands`): the agent asks for them at once when true or absent, else at its next periodic
 * look. With `base` (the route's query), a watch that wakes past `since` also carries the delta from that build
 * (`delta`, the route's answer): these fields are the rest, which the agent reads before it checks the delta itself.
 */
export const watchQuery = z.object({ since: z.coerce.number().int().min(0).default(0) });
/**
 * GET /agent/v1/watch/stream?since=REV[&base=ETAG] → the same answers as `watch`, one JSON line each
 * (application/x-ndjson) on one response the API keeps open: a line as soon as the revision moves past the last one
 * told (with the delta from the build the node was last sent, when the API keeps it) or an action is queued, and at
 * least every WATCH_SECONDS. A change thus costs a node one line, not a call and a new watch. The API ends the stream
 * after about WATCH_STREAM_SECONDS, and at once when the zone's credentials change (the node calls again, and a
 * revoked one is refused); the agent opens it again naming what it holds.
 */
export const WATCH_STREAM_SECONDS = 300;
export const watchResult = z.object({ revision: z.number().int().min(0), commands: z.boolean().optional() });

/** GET /agent/v1/state → the node's desired state (edge.desiredState) at its newest revision. */

/** Spec §9: Geneva window size, v1 recommended 1 to 60, v2 recommended 1. */
export const GENEVA_V1_WINDOW = { min: 1, max: 60 } as const;
export const GENEVA_V2_WINDOW = 1;
/** A node's Geneva setting: the TCP window size its edge answers new connections with. */
export const nodeGenevaFields = {
  enabled: z.boolean(),
  version: z.enum(['v1', 'v2']),
  windowSize: z.number().int(),
};
export const genevaWindowCheck = (g: { version: 'v1' | 'v2'; windowSize: number }, ctx: z.RefinementCtx) => {
  const ok = g.version === 'v1' ? g.windowSize >= GENEVA_V1_WINDOW.min && g.windowSize <= GENEVA_V1_WINDOW.max : g.windowSize === GENEVA_V2_WINDOW;
  if (!ok) ctx.addIssue({ code: 'custom', path: ['windowSize'], message: g.version === 'v1' ? 'v1 takes 1 to 60' : 'v2 takes 1' });
};
export const nodeGeneva = z.object(nodeGenevaFields).superRefine(genevaWindowCheck);
export const GENEVA_DEFAULT = { enabled: false, version: 'v1', windowSize: 1 } as const;
/** A node's monitor thresholds: reported usage above any of them is a breach (status error). */
export const nodeMonitorFields = {
  enabled: z.boolean(),
  cpuPercent: z.number().int().min(1).max(100),
  memoryPercent: z.number().int().min(1).max(100),
  diskPercent: z.number().int().min(1).max(100),
  /** A breaching node leaves the DNS resolution until its reports are back under the thresholds. */
  removeFromResolution: z.boolean(),
};
export const nodeMonitor = z.object(nodeMonitorFields);
export const MONITOR_DEFAULT = { enabled: false, cpuPercent: 90, memoryPercent: 90, diskPercent: 90, removeFromResolution: true } as const;
/** The node's own settings inside its desired state. */
export const nodeSettings = z.object({ monitor: nodeMonitor, geneva: nodeGeneva });

/**
 * Free bytes under which the filesystem holding a node's own files (the agent's STATE_DIR, nginx's prefix with its
 * access logs and cache) counts as full: nginx writes access lines at this rate in about a second on a busy node.
 */
export const DISK_FULL_FREE_BYTES = 1024 * 1024;
/**
 * The node's own files cannot be written: the filesystem holding them has less than DISK_FULL_FREE_BYTES free (or
 * no free inode), or a write of the agent's failed for lack of space since its last write that worked.
 */
export const diskFull = z.object({
  /** The fullest of the directories the node writes (STATE_DIR, nginx's logs). */
  path: z.string().max(4096),
  freeBytes: z.number().min(0),
  totalBytes: z.number().min(0),
  /** The agent's last write that failed for lack of space (state, log positions, a release), or null. */
  writeError: z.string().max(1024).nullable(),
});

/** POST /agent/v1/report: what the node is doing; the absence of reports makes a node offline. */
export const report = z.object({
  version: z.string().max(64),
  appliedRevision: z.number().int().min(0).nullable(),
  /** The last apply's failure (nginx -t output, a reload that failed), or null when the applied revision is the newest. */
  applyError: z.string().max(16_384).nullable(),
  nginxRunning: z.boolean(),
  cpuPercent: z.number().min(0).max(100),
  memory: z.object({ totalBytes: z.number().min(0), usedBytes: z.number().min(0) }),
  disk: z.object({ totalBytes: z.number().min(0), usedBytes: z.number().min(0) }),
  network: z.object({ rxBytes: z.number().min(0), txBytes: z.number().min(0) }),
  loadAverage: z.array(z.number()).max(3),
  uptimeSeconds: z.number().min(0),
  /** The addresses the node's rules block right now (the Lua ek_blocked dictionary); expiresAt in epoch seconds. */
  blocked: z
    .array(z.object({ siteId: z.number().int().positive(), ip: z.string().max(64), cause: z.string().max(64), expiresAt: z.number().int() }))
    .max(20_000)
    .optional(),
  /** The Geneva setting the agent holds from its desired state (the console shows it beside the one asked for). */
  geneva: nodeGeneva.optional(),
  /** Null while the node's disk has room; absent from agents older than the field (read as null). */
  diskFull: diskFull.nullable().optional(),
});

/** Actions the console queues for a node (spec §4 node actions, cache purges). */
export const COMMAND_KINDS = ['restart', 'reload', 'reset', 'upgrade', 'formatCache', 'clearCache', 'clearUrlCache', 'logRotate', 'warmCache'] as const;
export const command = z.object({
  id: z.number().int(),
  kind: z.enum(COMMAND_KINDS),
  /** clearUrlCache: { urls: string[] }; upgrade: { version, url }; otherwise {}. */
  args: z.record(z.string(), z.unknown()),
});
export const clearUrlCacheArgs = z
  .object({
    urls: z.array(z.string().regex(/^https?:\/\/\S+$/)).max(1000).default([]),
    /** Everything cached under these URL prefixes (`http(s)://host/path/`), whichever scheme fetched it. */
    prefixes: z.array(z.string().regex(/^https?:\/\/\S+\/$/)).max(1000).default([]),
  })
  .refine((a) => a.urls.length + a.prefixes.length > 0, { message: 'urls or prefixes are needed' });
/** clearCache: everything cached for these hosts (a site's domains), or everything when no hosts are given. */
export const clearCacheArgs = z.object({
  hosts: z.array(z.string().min(1).max(253)).max(5000).optional(),
  /** Only the files of these hosts whose path ends in one of these extensions. */
  extensions: z.array(z.string().regex(/^[a-z0-9]{1,10}$/)).max(100).optional(),
});
/** warmCache: the node fetches each URL through its own nginx so that the next client finds it cached. */
export const warmCacheArgs = z.object({ urls: z.array(z.string().regex(/^https?:\/\/\S+$/)).min(1).max(1000) });
/** `url` is absolute or relative to the API base; the package is fetched with the node's credential. */
export const upgradeArgs = z.object({
  version: z.string().max(64),
  url: z.string().min(1).max(2048),
  /** The package's SHA-256 (hex); when absent the agent asks `<url>.sha256`. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** The upgrade the agent reports its steps into (POST /agent/v1/upgrade/log). */
  upgradeId: z.number().int().positive().optional(),
});
/** POST /agent/v1/upgrade/log: one step of an upgrade; `state` ends it (complete from the new version, failed otherwise). */
export const UPGRADE_LOG_PATH = '/upgrade/log';
export const upgradeLogBody = z.object({
  upgradeId: z.number().int().positive(),
  message: z.string().min(1).max(4096),
  progress: z.number().int().min(0).max(100).optional(),
  state: z.enum(['updating', 'failed', 'complete']).optional(),
});
/** GET /agent/v1/commands → the node's queued commands, oldest first. */
export const commandsResult = z.object({ commands: z.array(command) });
/** POST /agent/v1/commands/{id}/result */
export const commandResult = z.object({ ok: z.boolean(), message: z.string().max(16_384) });

/**
 * POST /agent/v1/logs: a gzip body of NDJSON lines, each one nginx access or WAF log record (fields of
 * edge.accessLogLine). Answers how many lines were taken, so the agent advances its offsets only then.
 * The header `x-log-file` names the log file the lines come from (its inode); with each line's `offset` (where
 * the line ends in that file) the API stores a line once however often a batch is sent again.
 */
export const LOG_FILE_HEADER = 'x-log-file';
/**
 * The header `x-sent-at` carries the node's clock (epoch milliseconds) as it sends a batch. Where it differs from the
 * API's by more than LOG_CLOCK_SKEW_MIN_MS, the API moves the batch's line times by the difference: a node whose clock
 * is off by minutes still counts its traffic in the right buckets. Below that, the difference is mostly the batch's own
 * time in transit, and the times are kept as the node wrote them.
 */
export const LOG_SENT_AT_HEADER = 'x-sent-at';
export const LOG_CLOCK_SKEW_MIN_MS = 10_000;
/**
 * A shipper's batch is full at this many lines or bytes (sent sooner after its flush time): a node that falls behind
 * catches up in few large transactions, one that keeps up sends what its flush time gathered.
 */
export const LOG_BATCH_MAX = { lines: 10_000, bytes: 8 * 1024 * 1024 } as const;
export const logsResult = z.object({ accepted: z.number().int().min(0) });
export const accessLogLine = z.object({
  time: z.string(),
  siteId: z.number().int().nullable(),
  domain: z.string(),
  clientIp: z.string(),
  country: z.string(),
  asn: z.string(),
  method: z.string(),
  uri: z.string(),
  status: z.number().int(),
  bytesSent: z.number().int().min(0),
  bytesReceived: z.number().int().min(0),
  requestTime: z.number().min(0),
  upstreamTime: z.number().min(0).nullable(),
  cacheStatus: z.string(),
  httpVersion: z.string(),
  referer: z.string(),
  userAgent: z.string(),
  blockCause: z.string(),
  /** The edge's request id ($request_id). */
  requestId: z.string().default(''),
  /** http or https. */
  scheme: z.string().default(''),
  /** From the node's city database (DB-IP Lite): first-level subdivision and city; ISP is the AS organisation. */
  region: z.string().default(''),
  city: z.string().default(''),
  isp: z.string().default(''),
  /** What refused a blocked request: the module and rule (`moduleId:ruleId`, or the list entry), and the action taken. */
  blockRule: z.string().default(''),
  blockAction: z.string().default(''),
  /** Where the line ends in its log file (bytes): a line's identity for exactly-once ingest. */
  offset: z.number().int().min(0).optional(),
});

/**
 * POST /agent/v1/logs/stream: like /agent/v1/logs, a gzip NDJSON batch with `x-log-file`, of the stream (L4) log:
 * one line per connection an L4 port closed.
 */
export const STREAM_LOGS_PATH = '/logs/stream';
export const streamLogLine = z.object({
  time: z.string(),
  siteId: z.number().int().positive(),
  port: z.number().int().min(1).max(65_535),
  protocol: z.enum(['TCP', 'UDP']),
  clientIp: z.string().min(1),
  /** pass: proxied; drop: refused by the L4 firewall (blacklist 403, connection limit 503, country position). */
  outcome: z.enum(['pass', 'drop']),
  status: z.number().int(),
  /** Bytes sent to the client and received from it over the connection. */
  bytesSent: z.number().int().min(0),
  bytesReceived: z.number().int().min(0),
  sessionTime: z.number().min(0),
  /** The client's country and AS number, and the country of the node's address the connection arrived at (coloCountry). */
  country: z.string(),
  asn: z.string(),
  coloCountry: z.string(),
  offset: z.number().int().min(0).optional(),
});

export type EnrollResult = z.infer<typeof enrollResult>;
export type Report = z.infer<typeof report>;
export type DiskFull = z.infer<typeof diskFull>;
export type NodeSettings = z.infer<typeof nodeSettings>;
export type Command = z.infer<typeof command>;
export type UpgradeLogBody = z.infer<typeof upgradeLogBody>;
export type AccessLogLine = z.infer<typeof accessLogLine>;
export type StreamLogLine = z.infer<typeof streamLogLine>;
