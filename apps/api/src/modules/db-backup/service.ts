import path from 'node:path';
import { Codes, dbBackupSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { clientOf } from '../zones/service';
import { listBackups, pruneBackups, writableDir, writeBackup } from './backup-files';
import * as repo from './repo';
import { isDue } from './schedule';

type Setting = z.infer<typeof dbBackupSchemas.dbBackupSetting>;
export const DB_BACKUP_JOB = 'db-backup';

/** Backup settings belong to the client account (a sub-client manages its parent's). */
const ownerOf = async (deps: AppDeps, principal: Principal) => {
  const actor = await clientOf(deps, principal);
  return actor.parent_client_id ?? actor.id;
};

const settingOf = (row: repo.BackupRow | undefined): Setting => {
  if (!row) return { ...dbBackupSchemas.DB_BACKUP_DEFAULT };
  return dbBackupSchemas.dbBackupSetting.parse({ enabled: row.enabled === 1, period: row.period, time: row.time, path: row.path, retention: row.retention });
};

const statusOf = (s: string | null | undefined): 'ok' | 'failed' | null => (s === 'ok' || s === 'failed' ? s : null);

async function answer(deps: AppDeps, clientId: number) {
  const row = await repo.findSetting(deps.db, clientId);
  const setting = settingOf(row);
  return {
    ...setting,
    lastBackupAt: row?.last_backup_at ?? null,
    lastStatus: statusOf(row?.last_status),
    lastError: row?.last_error ?? null,
    backups: row ? await listBackups({ dir: setting.path, clientId }) : [],
  };
}

export const getBackupSetting = async (deps: AppDeps, principal: Principal) => answer(deps, await ownerOf(deps, principal));

const pathRefused = () =>
  new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'path', message: dbBackupSchemas.BACKUP_PATH_MESSAGE }] } });

/** With BACKUP_ROOT set, backups go below it only. */
const insideRoot = (deps: AppDeps, dir: string) => {
  const root = deps.config.backupRoot;
  if (!root) return true;
  const rel = path.relative(root, path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export async function setBackupSetting(deps: AppDeps, principal: Principal, body: Setting) {
  const clientId = await ownerOf(deps, principal);
  if (!insideRoot(deps, body.path) || !(await writableDir(body.path))) throw pathRefused();
  await repo.saveSetting(deps.db, clientId, { ...body, enabled: body.enabled ? 1 : 0, updated_at: now() });
  return answer(deps, clientId);
}

/** Backs the database up into the client's path, records the run and keeps the newest `retention` copies. */
async function backUp(deps: AppDeps, clientId: number, setting: Setting) {
  const at = new Date();
  try {
    const made = await writeBackup({ source: { dataDir: deps.config.dataDir, databaseUrl: deps.config.databaseUrl }, dir: setting.path, clientId, at });
    await pruneBackups({ dir: setting.path, clientId, keep: setting.retention });
    await repo.recordRun(deps.db, clientId, { at: at.toISOString(), status: 'ok', error: null });
    deps.log.info({ clientId, file: made.file, bytes: made.bytes }, 'database backed up');
    return made;
  } catch (err) {
    const error = (err as Error).message.slice(0, 2000);
    await repo.recordRun(deps.db, clientId, { at: at.toISOString(), status: 'failed', error });
    deps.log.error({ clientId, err: error }, 'database backup failed');
    throw err;
  }
}

export async function backUpNow(deps: AppDeps, principal: Principal) {
  const clientId = await ownerOf(deps, principal);
  const row = await repo.findSetting(deps.db, clientId);
  const setting = settingOf(row);
  if (!row || !insideRoot(deps, setting.path) || !(await writableDir(setting.path))) throw pathRefused();
  return backUp(deps, clientId, setting).catch((err: Error) => {
    throw new ApiError(Codes.Database, { extra: err.message.slice(0, 500) });
  });
}

/** The scheduler's run: every enabled setting whose time has come gets its backup. */
export async function runDueBackups(deps: AppDeps, at = new Date()) {
  for (const row of await repo.enabledSettings(deps.db)) {
    if (!isDue(row, at)) continue;
    await backUp(deps, row.client_id, settingOf(row)).catch(() => undefined);
  }
}
