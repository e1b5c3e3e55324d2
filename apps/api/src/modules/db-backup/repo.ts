import type { Db } from '../../db';

/** All SQL of the database backup settings; every query is scoped to one client. */
export type BackupRow = {
  client_id: number;
  enabled: number;
  period: string;
  time: string;
  path: string;
  retention: number;
  last_backup_at: string | null;
  last_status: string | null;
  last_error: string | null;
  updated_at: string;
};

export const findSetting = (db: Db, clientId: number): Promise<BackupRow | undefined> =>
  db.selectFrom('db_backup_settings').selectAll().where('client_id', '=', clientId).executeTakeFirst();

export async function saveSetting(db: Db, clientId: number, values: Pick<BackupRow, 'enabled' | 'period' | 'time' | 'path' | 'retention' | 'updated_at'>) {
  await db
    .insertInto('db_backup_settings')
    .values({ client_id: clientId, ...values })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
    .execute();
}

export async function recordRun(db: Db, clientId: number, run: { at: string; status: 'ok' | 'failed'; error: string | null }) {
  await db
    .updateTable('db_backup_settings')
    .set({ last_backup_at: run.at, last_status: run.status, last_error: run.error })
    .where('client_id', '=', clientId)
    .execute();
}

export const enabledSettings = (db: Db): Promise<BackupRow[]> =>
  db.selectFrom('db_backup_settings').selectAll().where('enabled', '=', 1).execute();
