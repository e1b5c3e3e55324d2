import { now, type Db } from '../../db';

/** Every query names the client (the tenant's root client account) whose setting it reads or writes. */
export const findSetting = (db: Db, ownerId: number, name: string) =>
  db.selectFrom('system_settings').select(['value', 'updated_at']).where('owner_id', '=', ownerId).where('name', '=', name).executeTakeFirst();

export async function saveSetting(db: Db, ownerId: number, name: string, value: unknown) {
  const updatedAt = now();
  const json = JSON.stringify(value);
  await db
    .insertInto('system_settings')
    .values({ owner_id: ownerId, name, value: json, updated_at: updatedAt })
    .onConflict((oc) => oc.columns(['owner_id', 'name']).doUpdateSet({ value: json, updated_at: updatedAt }))
    .execute();
  return updatedAt;
}

/** The accounts on an account's path from the top, nearest last. */
export const ancestorsOf = (db: Db, ids: number[]) =>
  ids.length ? db.selectFrom('accounts').select(['id', 'auth', 'is_root']).where('id', 'in', ids).execute() : Promise.resolve([]);
