import { dbBackupRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { backUpNow, DB_BACKUP_JOB, getBackupSetting, runDueBackups, setBackupSetting } from './service';

export function dbBackupRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.get, async ({ principal }) => ({ data: await getBackupSetting(deps, principal) }));
  registerRoute(app, deps, r.put, async ({ principal, body }) => ({ data: await setBackupSetting(deps, principal, body) }));
  registerRoute(app, deps, r.run, async ({ principal }) => ({ data: await backUpNow(deps, principal) }));
  deps.scheduler.every({ name: DB_BACKUP_JOB, everyMs: 60_000, leaseMs: 30 * 60_000, run: () => runDueBackups(deps) });
}
