import * as s from '../schemas/db-backup';
import { envelope } from '../paging';
import { defineRoute } from '../route';

const tier = 'client';
const tag = 'System settings';
const path = 'client/setting/system/DBBackup';

export const dbBackupRoutes = {
  get: defineRoute({ id: 'client.setting.dbBackup', method: 'GET', path, tier, permission: 'system.view', tag,
    summary: 'Database backup setting (period, time, path, retention) with the last run and the backups kept', response: envelope(s.dbBackupAnswer) }),
  put: defineRoute({ id: 'client.setting.dbBackup.update', method: 'PUT', path, tier, permission: 'system.edit', tag,
    summary: 'Store the database backup setting; the path must exist or be creatable, and be writable', body: s.dbBackupSetting, response: envelope(s.dbBackupAnswer) }),
  run: defineRoute({ id: 'client.setting.dbBackup.run', method: 'POST', path: `${path}/run`, tier, permission: 'system.edit', tag,
    summary: 'Back the database up now into the set path (the retention applies)', response: envelope(s.backupFile) }),
} as const;
