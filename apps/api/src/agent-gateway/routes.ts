import fs from 'node:fs';
import path from 'node:path';
import { agentProtocol, Codes } from '@edgekeep/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { now } from '../db';
import type { AppDeps } from '../deps';
import { logIntake } from '../analytics/ingest';
import { ApiError, validationError } from '../http/errors';
import { randomToken, sha256 } from '../lib/crypto';
import { recordBlocked } from '../modules/firewall/blocked-service';
import { breachOf, monitorOf } from '../modules/resolutions/health';
import { refreshStale } from '../modules/resolutions/service';
import { agentPackage, installScript, packageChecksum } from './package';
import { upgradeCommandAnswered } from '../modules/node-upgrades/service';
import { buildNodeState } from './state';
import { createStateCache } from './state-cache';

const base = agentProtocol.AGENT_BASE;

export function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** The node a credential belongs to; a revoked or unknown credential is refused like an invalid token. */
export async function nodeOf(deps: AppDeps, req: FastifyRequest) {
  const [scheme, credential] = (req.headers.authorization ?? '').split(' ');
  const node =
    scheme === 'Node' && credential
      ? await deps.db.selectFrom('nodes').select(['id', 'zone_id']).where('credential_hash', '=', sha256(credential)).executeTakeFirst()
      : undefined;
  if (!node) throw new ApiError(Codes.WrongCode, { extra: 'unknown or revoked node credential' });
  return node;
}

const zoneRevision = async (deps: AppDeps, nodeId: number) => {
  const row = await deps.db.selectFrom('nodes').innerJoin('zones', 'zones.id', 'nodes.zone_id').select(['zones.id', 'zones.revision']).where('nodes.id', '=', nodeId).executeTakeFirstOrThrow();
  return row;
};

/**
 * The control plane's side of the agent protocol (contract `agentProtocol`): the install script and agent
 * package, enrolment, the long-polled watch, the desired state, reports and queued actions. A node only ever
 * gets its own zone's state.
 */
export function agentGateway(app: FastifyInstance, deps: AppDeps, opts: { watchSeconds?: number } = {}) {
  const watchMs = (opts.watchSeconds ?? agentProtocol.WATCH_SECONDS) * 1000;

  app.get('/agent/install.sh', async (_req, reply) => reply.type('text/x-shellscript').send(fs.createReadStream(installScript())));
  app.get('/agent/package.tgz', async (_req, reply) => {
    const file = await agentPackage(deps.config.dataDir);
    return reply.type('application/gzip').header('content-disposition', `attachment; filename="${path.basename(file)}"`).send(fs.createReadStream(file));
  });

  app.get('/agent/package.tgz.sha256', async (_req, reply) => reply.type('text/plain').send(await packageChecksum(await agentPackage(deps.config.dataDir))));

  app.post(`${base}/enroll`, async (req) => {
    const body = parse(agentProtocol.enrollBody, req.body, 'body');
    const node = await deps.db.selectFrom('nodes').selectAll().where('enroll_token_hash', '=', sha256(body.token)).executeTakeFirst();
    if (!node || !node.enroll_expires_at || node.enroll_expires_at < now()) throw new ApiError(Codes.WrongCode, { extra: 'invalid or expired enrolment token' });
    const credential = randomToken(32);
    await deps.db
      .updateTable('nodes')
      .set({ credential_hash: sha256(credential), initialized_at: now(), enroll_token_hash: null, enroll_expires_at: null, version: body.version, updated_at: now() })
      .where('id', '=', node.id)
      .execute();
    req.log.info({ nodeId: node.id, hostname: body.hostname }, 'node enrolled');
    return agentProtocol.enrollResult.parse({ nodeId: node.id, nodeUID: node.node_uid, credential });
  });

  app.get(`${base}/watch`, async (req) => {
    const node = await nodeOf(deps, req);
    const { since } = parse(agentProtocol.watchQuery, req.query, 'query');
    const current = await zoneRevision(deps, node.id);
    if (current.revision > since) return { revision: current.revision };
    const closed = new AbortController();
    req.raw.once('close', () => closed.abort());
    await deps.revisions.next(current.id, watchMs, closed.signal);
    return { revision: (await zoneRevision(deps, node.id)).revision };
  });

  const stateOf = createStateCache({ db: deps.db, build: (nodeId) => buildNodeState(deps, nodeId) });
  app.get(`${base}/state`, async (req) => stateOf((await nodeOf(deps, req)).id));

  app.post(`${base}/report`, async (req) => {
    const node = await nodeOf(deps, req);
    const report = parse(agentProtocol.report, req.body, 'body');
    const before = await deps.db
      .selectFrom('nodes')
      .innerJoin('zones', 'zones.id', 'nodes.zone_id')
      .select(['nodes.monitor', 'nodes.applied_revision', 'zones.revision', 'zones.revision_at'])
      .where('nodes.id', '=', node.id)
      .executeTakeFirstOrThrow();
    const monitor = monitorOf(before);
    await deps.db
      .updateTable('nodes')
      .set({
        report: JSON.stringify(report),
        version: report.version,
        applied_revision: report.appliedRevision,
        apply_error: report.applyError,
        monitor_breach: breachOf(monitor, report),
        last_report_at: now(),
      })
      .where('id', '=', node.id)
      .execute();
    // the first report of the zone's newest revision: how long it took to reach this node
    const reached = report.appliedRevision !== null && report.appliedRevision >= before.revision && (before.applied_revision ?? 0) < before.revision;
    if (reached && before.revision_at) deps.metrics.propagation.observe(Math.max(0, (Date.now() - Date.parse(before.revision_at)) / 1000));
    if (report.blocked) await recordBlocked(deps, node, report.blocked);
    await refreshStale(deps, [node.zone_id]);
    return { ok: true };
  });

  app.get(`${base}/commands`, async (req) => {
    const node = await nodeOf(deps, req);
    const rows = await deps.db.selectFrom('node_commands').selectAll().where('node_id', '=', node.id).where('status', 'in', ['queued', 'sent']).orderBy('id').execute();
    if (rows.length) await deps.db.updateTable('node_commands').set({ status: 'sent' }).where('id', 'in', rows.map((r) => r.id)).where('status', '=', 'queued').execute();
    return agentProtocol.commandsResult.parse({ commands: rows.map((r) => ({ id: r.id, kind: r.kind, args: JSON.parse(r.args) })) });
  });

  app.post<{ Params: { id: string } }>(`${base}/commands/:id/result`, async (req) => {
    const node = await nodeOf(deps, req);
    const result = parse(agentProtocol.commandResult, req.body, 'body');
    const updated = await deps.db
      .updateTable('node_commands')
      .set({ status: result.ok ? 'done' : 'failed', message: result.message, finished_at: now() })
      .where('id', '=', Number(req.params.id))
      .where('node_id', '=', node.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new ApiError(Codes.Parameter, { status: 404, extra: 'command not found' });
    await upgradeCommandAnswered(deps, { nodeId: node.id, commandId: Number(req.params.id), ...result });
    return { ok: true };
  });

  logIntake(app, deps, { path: `${base}/logs`, nodeOf: (req) => nodeOf(deps, req) });
  logIntake(app, deps, { path: `${base}${agentProtocol.STREAM_LOGS_PATH}`, nodeOf: (req) => nodeOf(deps, req), ingest: (batch) => deps.analytics.l4.ingest(batch) });
}
