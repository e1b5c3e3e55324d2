import { z } from 'zod';
import * as p from '../edge/agent-protocol';
import { desiredState } from '../edge/desired-state';
import { stateDelta, stateQuery } from '../edge/state-delta';
import { defineRoute } from '../route';
import { idParam } from '../schemas/account';

const ok = z.object({ ok: z.boolean() });
/**
 * A watch that names the build the node holds (`base`) and wakes past `since` carries what changed since, when the
 * API still keeps that build: the node holds the new revision without asking for the state. Absent otherwise (no
 * base, a build no longer kept): the node asks `GET /state` as before.
 */
const watchDelta = stateDelta.optional().describe('What changed from the build `base` to the newest, as `GET /state?base=` answers it; absent when the API does not keep that build');
/** A log batch: gzip NDJSON (application/x-ndjson), named by the `x-log-file` header, sent at the node's `x-sent-at` clock. */
const logBatch = z.instanceof(Uint8Array).describe('gzip NDJSON lines, Content-Encoding: gzip');
const node = { tier: 'any', auth: 'node', tag: 'Agent' } as const;
const file = { tier: 'any', public: true, download: true, tag: 'Agent', response: z.string() } as const;

/** The edge agent's protocol (edge/agent-protocol): what a node calls, with its credential once enrolled. */
export const agentRoutes = {
  installScript: defineRoute({ id: 'agentInstallScript', method: 'GET', path: '/agent/install.sh', ...file, summary: 'The install script the enrolment dialog runs' }),
  package: defineRoute({ id: 'agentPackage', method: 'GET', path: '/agent/package.tgz', ...file, summary: 'The agent package of this version' }),
  packageChecksum: defineRoute({ id: 'agentPackageChecksum', method: 'GET', path: '/agent/package.tgz.sha256', ...file, summary: "The agent package's SHA-256 (hex)" }),
  enroll: defineRoute({ id: 'agentEnroll', method: 'POST', path: `${p.AGENT_BASE}/enroll`, tier: 'any', public: true, tag: 'Agent',
    summary: 'Trade a one-time enrolment token for the node credential', body: p.enrollBody, response: p.enrollResult }),
  watch: defineRoute({ id: 'agentWatch', method: 'GET', path: `${p.AGENT_BASE}/watch`, ...node,
    summary: "The newest revision of the node's desired state, long-polled past `since`; with `base`, what changed since that build",
    query: p.watchQuery.extend(stateQuery.shape), response: p.watchResult.extend({ delta: watchDelta }) }),
  watchStream: defineRoute({ id: 'agentWatchStream', method: 'GET', path: `${p.AGENT_BASE}/watch/stream`, ...node, download: true,
    summary: "The answers of `watch`, one JSON line each as they come, on a response kept open (agentProtocol.WATCH_STREAM_SECONDS)",
    query: p.watchQuery.extend(stateQuery.shape), response: z.string().describe('application/x-ndjson: one `watch` answer a line') }),
  state: defineRoute({ id: 'agentState', method: 'GET', path: `${p.AGENT_BASE}/state`, ...node,
    summary: "The node's desired state at its newest revision: whole, or what changed since the build `base` when the API still holds it",
    query: stateQuery, response: z.union([desiredState, stateDelta]) }),
  report: defineRoute({ id: 'agentReport', method: 'POST', path: `${p.AGENT_BASE}/report`, ...node,
    summary: 'What the node is doing (its absence makes the node offline)', body: p.report, response: ok }),
  commands: defineRoute({ id: 'agentCommands', method: 'GET', path: `${p.AGENT_BASE}/commands`, ...node,
    summary: "The node's queued commands, oldest first", response: p.commandsResult }),
  commandResult: defineRoute({ id: 'agentCommandResult', method: 'POST', path: `${p.AGENT_BASE}/commands/{id}/result`, ...node,
    summary: 'How a command ended', params: z.object({ id: idParam }), body: p.commandResult, response: ok }),
  upgradeLog: defineRoute({ id: 'agentUpgradeLog', method: 'POST', path: `${p.AGENT_BASE}${p.UPGRADE_LOG_PATH}`, ...node,
    summary: 'One step of an upgrade of the node', body: p.upgradeLogBody, response: ok }),
  logs: defineRoute({ id: 'agentLogs', method: 'POST', path: `${p.AGENT_BASE}/logs`, ...node,
    summary: 'A batch of access and WAF log lines', body: logBatch, response: p.logsResult }),
  streamLogs: defineRoute({ id: 'agentStreamLogs', method: 'POST', path: `${p.AGENT_BASE}${p.STREAM_LOGS_PATH}`, ...node,
    summary: 'A batch of stream (L4) log lines', body: logBatch, response: p.logsResult }),
} as const;
