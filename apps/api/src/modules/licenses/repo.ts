import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import type { LicenseTable } from '../../db/schema';

export type License = Selectable<LicenseTable>;
export type LicenseKind = License['kind'];

/** Licenses of one kind with the name of the client they belong to. */
export const licensesOf = (db: Db, kind: LicenseKind) =>
  db
    .selectFrom('licenses')
    .leftJoin('accounts', 'accounts.id', 'licenses.client_id')
    .selectAll('licenses')
    .select('accounts.name as client_name')
    .where('licenses.kind', '=', kind);

export const findLicense = (db: Db, kind: LicenseKind, id: number) =>
  licensesOf(db, kind).where('licenses.id', '=', id).executeTakeFirst();

export function insertLicense(db: Db, values: Omit<Insertable<LicenseTable>, 'created_at' | 'updated_at'>) {
  const at = now();
  return db.insertInto('licenses').values({ ...values, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
}

export const updateLicense = (db: Db, id: number, values: Updateable<LicenseTable>) =>
  db.updateTable('licenses').set({ ...values, updated_at: now() }).where('id', '=', id).execute();

/** A root client account: the tenant a license belongs to. */
export const findClient = (db: Db, id: number) =>
  db.selectFrom('accounts').select(['id', 'name']).where('id', '=', id).where('auth', '=', 'client').where('is_root', '=', 1).executeTakeFirst();

export const findActivation = (db: Db, clientId: number) =>
  db.selectFrom('license_activations').selectAll().where('client_id', '=', clientId).executeTakeFirst();

/** Makes `licenseId` the one license the client holds, replacing whatever it held; run it in a transaction. */
export async function activate(db: Db, p: { clientId: number; licenseId: number; key: string }) {
  await db.deleteFrom('license_activations').where('client_id', '=', p.clientId).execute();
  await db.insertInto('license_activations').values({ client_id: p.clientId, license_id: p.licenseId, license_key: p.key, activated_at: now() }).execute();
}

/** Takes back the online licenses issued to a client (but `keep`): a client holds one license at a time. */
export function releaseOnline(db: Db, clientId: number, keep?: number) {
  const q = db
    .updateTable('licenses')
    .set({ client_id: null, license_key: null, issued_at: null, expires_at: null, installation_id: null, updated_at: now() })
    .where('kind', '=', 'online')
    .where('client_id', '=', clientId);
  return (keep === undefined ? q : q.where('id', '!=', keep)).execute();
}

export const findRegistration = (db: Db, clientId: number) =>
  db.selectFrom('license_registrations').selectAll().where('client_id', '=', clientId).executeTakeFirst();

export const replaceRegistration = (db: Db, clientId: number, nonce: string) =>
  db.transaction().execute(async (trx) => {
    await trx.deleteFrom('license_registrations').where('client_id', '=', clientId).execute();
    return trx.insertInto('license_registrations').values({ client_id: clientId, nonce, created_at: now() }).returningAll().executeTakeFirstOrThrow();
  });

export const removeRegistration = (db: Db, clientId: number) =>
  db.deleteFrom('license_registrations').where('client_id', '=', clientId).execute();

export const ordersOf = (db: Db, clientId: number) =>
  db.selectFrom('license_orders').selectAll().where('client_id', '=', clientId).orderBy('ordered_at', 'desc').orderBy('id', 'desc').execute();
