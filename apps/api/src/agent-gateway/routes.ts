import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { agentProtocol, agentRoutes as r, Codes, stateDelta } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import { now } from '../db';
import type { AppDeps } from '../deps';
import { logIntake } from '../analytics/ingest';
import { ApiError } from '../http/errors';
import { forgetNodeCredentials, type EdgeNode } from '../http/auth';
import { registerDownload, registerNodeRoute, registerRoute } from '../http/route';
import { batched } from '../lib/batched';
import { randomToken, sha256 } from '../lib/crypto';
import { recordBlocked } from '../modules/firewall/blocked-service';
import { answerCommand, nodesWithCommandsWaiting, takeWaitingCommands } from '../modules/nodes/commands-repo';
import { nodeByEnrolToken, nodesBeforeReport, recordAgentReports, updateAgentNode } from '../modules/nodes/repo';
import { breachOf, isResolvable, monitorOf } from '../modules/resolutions/health';
import { refreshStale } from '../modules/resolutions/service';
import { agentPackage, installScript, packageChecksum } from '../lib/agent-package';
import { upgradeCommandAnswered } from '../modules/node-upgrades/service';
import { buildNodeState } from './state';
import { createStateCache } from './state-cache';
import { watchStream } from './watch-stream';

/**
 * Runs `task` for a key one at a time: a call while it runs waits for one more run, shared by every call made
 * meanwhile (each of them asked after the running one had begun, so the next one sees what they wrote).
 */
function oneAtATime(task: (key: number) => Promise<void>) {
  const running = new Map<number, Promise<void>>();
  const queued = new Map<number, Promise<void>>();
  const start = (key: number): Promise<void> => {
    queued.delete(key);
    const run = task(key).finally(() => void (running.get(key) === run && running.delete(key)));
    running.set(key, run);
    return run;
  };
  return (key: number) => {
    const busy = running.get(key);
    if (!busy) return start(key);
    let next = queued.get(key);
    if (!next) queued.set(key, (next = busy.catch(() => undefined).then(() => start(key))));
    return next;
  };
}

/** Reports that come within this many milliseconds of each other are written together (up to REPORT_BATCH_MAX). */
const REPORT_BATCH_MS = 10;
const REPORT_BATCH_MAX = 500;

/**
 * How long the nodes of a zone with actions waiting are known without a look: whatever queues an action wakes the
 * zone, which drops what was known (on every instance), so this only bounds a wake that was lost.
 */
const COMMANDS_KNOWN_MS = 30_000;

/**
 * Whether actions wait for the node (queued, or sent and not answered yet): read once for the zone's watchers that
 * wake together and the nodes that poll meanwhile, so that neither costs each node a look at its commands.
 */
const commandsWaiting = async (deps: AppDeps, node: { id: number; zone_id: number }) =>
  (
    await deps.revisions.readOnce(node.zone_id, 'commands', () => nodesWithCommandsWaiting(deps.db, node.zone_id), COMMANDS_KNOWN_MS)
  ).has(node.id);

/**
 * The control plane's side of the agent protocol (contract `agentRoutes`): the install script and agent
 * package, enrolment, the watch (streamed, or long-polled by agents of earlier versions), the desired state, reports,
 * queued actions and log batches. Every call but the files and enrolment is a node's, known by its credential; a node
 * only ever gets its own zone's state.
 */
export function agentGateway(app: FastifyInstance, deps: AppDeps, opts: { watchSeconds?: number } = {}) {
  const watchMs = (opts.watchSeconds ?? agentProtocol.WATCH_SECONDS) * 1000;

  registerDownload(app, deps, r.installScript, async ({ reply }) => {
    reply.type('text/x-shellscript');
    return fs.createReadStream(installScript());
  });
  registerDownload(app, deps, r.package, async ({ reply }) => {
    const file = await agentPackage(deps.config.dataDir);
    reply.type('application/gzip').header('content-disposition', `attachment; filename="${path.basename(file)}"`);
    return fs.createReadStream(file);
  });
  registerDownload(app, deps, r.packageChecksum, async ({ reply }) => {
    reply.type('text/plain');
    return Readable.from([await packageChecksum(await agentPackage(deps.config.dataDir))]);
  });

  registerRoute(app, deps, r.enroll, async ({ req, body }) => {
    const node = await nodeByEnrolToken(deps.db, sha256(body.token));
    if (!node || !node.enroll_expires_at || node.enroll_expires_at < now()) throw new ApiError(Codes.WrongCode, { extra: 'invalid or expired enrolment token' });
    const credential = randomToken(32);
    await updateAgentNode(deps.db, node.id, { credential_hash: sha256(credential), initialized_at: now(), enroll_token_hash: null, enroll_expires_at: null, version: body.version, updated_at: now() });
    await forgetNodeCredentials(deps, [node.zone_id]);
    req.log.info({ nodeId: node.id, hostname: body.hostname }, 'node enrolled');
    return { nodeId: node.id, nodeUID: node.node_uid, credential };
  });

  const stateOf = createStateCache({ db: deps.db, build: (nodeId, prior) => buildNodeState(deps, nodeId, prior), revisions: deps.revisions });
  /** A watch past `since` from a node that names its build: the delta from it too, when this instance keeps that build. */
  const woken = async (node: EdgeNode, { since, base }: { since: number; base?: string }, revision: number) => {
    if (base === undefined || revision <= since) return { revision, commands: await commandsWaiting(deps, node) };
    // whether actions wait is read while the state is built; the watch answers without the delta when the state
    // cannot be built: the node's own state call then says why
    const [commands, delta] = await Promise.all([commandsWaiting(deps, node), stateOf(node, base).catch(() => undefined)]);
    return stateDelta.isDelta(delta) ? { revision, commands, delta } : { revision, commands };
  };

  // The zone's watchers wake together: each instance reads the zone's revision once for them all (and builds the new
  // state once for those of the same inputs, whose deltas it answers with).
  registerNodeRoute(
    app,
    deps,
    r.watch,
    async ({ req, node, query }) => {
      // listening before the revision is read: a change committed meanwhile still wakes this watch
      const wait = deps.revisions.next(node.zone_id, watchMs);
      req.raw.once('close', wait.stop);
      const current = await deps.revisions.revision(deps.db, node.zone_id);
      if (current > query.since) {
        wait.stop();
        return woken(node, query, current);
      }
      await wait.woke;
      return woken(node, query, await deps.revisions.revision(deps.db, node.zone_id));
    },
    // the delta is read from builds checked as they were made, as the state call answers them
    { checked: true },
  );

  // The same answers on a response kept open: each change is a line to the node, not a call and a new watch.
  registerDownload(app, deps, r.watchStream, async ({ req, reply, query }) => {
    reply.type('application/x-ndjson').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
    return watchStream(deps, { node: req.edgeNode!, ...query, watchMs, answer: woken, onClose: (listener) => reply.raw.once('close', listener) });
  });

  registerNodeRoute(app, deps, r.state, async ({ node, query }) => stateOf(node, query.base), { checked: true });

  // Computed again only when still stale: a zone's reports after a change start a run on every instance, and each
  // queues one more for the reports that came meanwhile; the first run brings the rows up to date for all the others.
  const refreshZone = oneAtATime((zoneId) => refreshStale(deps, [zoneId]));
  // A change reaches a zone's nodes together and each reports at once: this instance writes the reports that come
  // within REPORT_BATCH_MS of each other in one read and one statement, not two queries and a commit apiece. Of two
  // reports of one node in a batch, the later one is written.
  const record = batched(
    async (reports: { node: EdgeNode; report: agentProtocol.Report }[]) => {
      const befores = new Map((await nodesBeforeReport(deps.db, [...new Set(reports.map((r) => r.node.id))])).map((b) => [b.id, b]));
      const answers = reports.map(({ node, report }) => {
        const before = befores.get(node.id);
        if (!before) return new Error(`node ${node.id} is gone`);
        const health = { ...before, last_report_at: now(), apply_error: report.applyError, monitor_breach: breachOf(monitorOf(before), report) };
        const values = {
          report: JSON.stringify(report),
          version: report.version,
          applied_revision: report.appliedRevision,
          apply_error: health.apply_error,
          monitor_breach: health.monitor_breach,
          last_report_at: health.last_report_at,
        };
        return { before, health, values };
      });
      const latest = new Map(reports.flatMap(({ node }, i) => (answers[i] instanceof Error ? [] : [[node.id, answers[i].values] as const])));
      await recordAgentReports(deps.db, [...latest].map(([nodeId, values]) => ({ nodeId, values })));
      return answers;
    },
    { waitMs: REPORT_BATCH_MS, max: REPORT_BATCH_MAX },
  );
  registerNodeRoute(app, deps, r.report, async ({ node, body: report }) => {
    const { before, health } = await record({ node, report });
    // the first report of the zone's newest revision: how long it took to reach this node
    const reached = report.appliedRevision !== null && report.appliedRevision >= before.revision && (before.applied_revision ?? 0) < before.revision;
    if (reached && before.revision_at) deps.metrics.propagation.observe(Math.max(0, (Date.now() - Date.parse(before.revision_at)) / 1000));
    if (report.blocked) await recordBlocked(deps, node, report.blocked);
    // The zone's resolutions are computed again when they are behind its revision or this report changes whether the
    // node answers in them (as `staleZones` tells, for this node alone: the nodes that fall silent are the sweep's);
    // the zone's reports arriving together share one computation.
    const behind = before.computed === null || Number(before.computed) !== Number(before.revision);
    if (behind || isResolvable(health) !== (before.resolvable === 1)) await refreshZone(node.zone_id);
    return { ok: true };
  });

  registerNodeRoute(app, deps, r.commands, async ({ node }) => {
    // agents poll every few seconds: one with nothing waiting is answered from what its zone's nodes have waiting
    if (!(await commandsWaiting(deps, node))) return { commands: [] };
    const rows = await takeWaitingCommands(deps.db, node.id);
    return { commands: rows.map((r) => ({ id: r.id, kind: r.kind, args: JSON.parse(r.args) })) };
  });

  registerNodeRoute(app, deps, r.commandResult, async ({ node, params, body: result }) => {
    if (!(await answerCommand(deps.db, node.id, params.id, result))) throw new ApiError(Codes.Parameter, { status: 404, extra: 'command not found' });
    // whether actions wait for the zone's nodes is read again here (another instance may answer a poll with one more look)
    deps.revisions.forgetRead(node.zone_id, 'commands');
    await upgradeCommandAnswered(deps, { nodeId: node.id, commandId: params.id, ...result });
    return { ok: true };
  });

  logIntake(app, deps, r.logs);
  logIntake(app, deps, r.streamLogs, (batch) => deps.analytics.l4.ingest(batch));
}
