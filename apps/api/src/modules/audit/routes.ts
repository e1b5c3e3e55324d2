import { accountRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { auditRecorder } from './recorder';
import { queryAuditLogs } from './service';

/** Records every mutating call, and answers the operation log; nothing edits or deletes it. */
export function auditRoutes(app: FastifyInstance, deps: AppDeps) {
  auditRecorder(app, deps);
  registerRoute(app, deps, accountRoutes.auditLogs, async ({ principal, body }) => queryAuditLogs(deps, principal, body));
}
