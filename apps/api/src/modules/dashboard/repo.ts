import { now, type Db } from '../../db';

/** Every query names the account whose dashboard it reads or writes. */
export const findDashboard = (db: Db, accountId: number) =>
  db.selectFrom('dashboards').select(['layout', 'updated_at']).where('account_id', '=', accountId).executeTakeFirst();

export async function saveDashboard(db: Db, accountId: number, layout: string) {
  const updatedAt = now();
  await db
    .insertInto('dashboards')
    .values({ account_id: accountId, layout, updated_at: updatedAt })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ layout, updated_at: updatedAt }))
    .execute();
  return updatedAt;
}
