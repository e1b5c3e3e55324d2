import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import type { LicenseOrderTable, LicenseTable } from '../../db/schema';

/*
 * Licenses and their orders are the operator's: every query here is a plain function. A client reaches only its own
 * activation and registration request, by the root client id its routes resolve from the caller.
 */

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

/** Those of `ids` that are licenses of this kind, with their client and registration nonce. */
export const licensesIn = (db: Db, kind: LicenseKind, ids: number[]) =>
  db.selectFrom('licenses').select(['id', 'client_id', 'nonce']).where('kind', '=', kind).where('id', 'in', ids).execute();

export const deleteLicenses = (db: Db, ids: number[]) => db.deleteFrom('licenses').where('id', 'in', ids).execute();

/** The license issued for a registration request (its nonce), if any. */
export const licenseOfNonce = (db: Db, nonce: string) => db.selectFrom('licenses').select('id').where('nonce', '=', nonce).executeTakeFirst();

/** Those of `ids` that are licenses of this client. */
export const clientLicensesIn = (db: Db, clientId: number, ids: number[]) =>
  db.selectFrom('licenses').select('id').where('client_id', '=', clientId).where('id', 'in', ids).execute();

/** Releases the registration of offline licenses: no key, installation or nonce is left on them; run it in a transaction. */
export const unregisterLicenses = (db: Db, ids: number[]) =>
  db.updateTable('licenses').set({ installation_id: null, nonce: null, license_key: null, issued_at: null, expires_at: null, updated_at: now() }).where('id', 'in', ids).execute();

/** The operator's dashboard counts: licenses, those issued, and issued ones expiring between `from` and `until`. */
export const licenseCounts = async (db: Db, from: string, until: string) => {
  const row = await db
    .selectFrom('licenses')
    .select((eb) => [
      eb.fn.countAll().as('licenses'),
      eb.fn.count('license_key').as('issued'),
      eb.fn.sum(eb.case().when(eb.and([eb('license_key', 'is not', null), eb('expires_at', '>', from), eb('expires_at', '<=', until)])).then(1).else(0).end()).as('soon'),
    ])
    .executeTakeFirstOrThrow();
  return { licenses: toCount(row.licenses), issued: toCount(row.issued), soon: toCount(row.soon) };
};

const rootClients = (db: Db) => db.selectFrom('accounts').where('auth', '=', 'client').where('is_root', '=', 1);

/** A root client account: the tenant a license belongs to. */
export const findClient = (db: Db, id: number) => rootClients(db).select(['id', 'name']).where('id', '=', id).executeTakeFirst();

export const rootClientCount = async (db: Db) => toCount((await rootClients(db).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

export const findActivation = (db: Db, clientId: number) =>
  db.selectFrom('license_activations').selectAll().where('client_id', '=', clientId).executeTakeFirst();

/** Makes `licenseId` the one license the client holds, replacing whatever it held; run it in a transaction. */
export async function activate(db: Db, p: { clientId: number; licenseId: number; key: string }) {
  await db.deleteFrom('license_activations').where('client_id', '=', p.clientId).execute();
  await db.insertInto('license_activations').values({ client_id: p.clientId, license_id: p.licenseId, license_key: p.key, activated_at: now() }).execute();
}

/** The license's activation (whoever holds it) now holds this key. */
export const setActivationKey = (db: Db, licenseId: number, key: string) =>
  db.updateTable('license_activations').set({ license_key: key }).where('license_id', '=', licenseId).execute();

/** The client's activation now holds this renewed key. */
export const renewActivation = (db: Db, clientId: number, key: string) =>
  db.updateTable('license_activations').set({ license_key: key, activated_at: now() }).where('client_id', '=', clientId).execute();

/** Whoever holds these licenses is left without one. */
export const deactivateLicenses = (db: Db, licenseIds: number[]) => db.deleteFrom('license_activations').where('license_id', 'in', licenseIds).execute();

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

/** Removes the client's pending registration request, or only the one with this nonce. */
export function removeRegistration(db: Db, clientId: number, nonce?: string) {
  const q = db.deleteFrom('license_registrations').where('client_id', '=', clientId);
  return (nonce === undefined ? q : q.where('nonce', '=', nonce)).execute();
}

export const ordersOf = (db: Db, clientId: number) =>
  db.selectFrom('license_orders').selectAll().where('client_id', '=', clientId).orderBy('ordered_at', 'desc').orderBy('id', 'desc').execute();

/** Replaces a client's order records; run it in a transaction. */
export async function replaceOrdersOf(db: Db, clientId: number, orders: Omit<Insertable<LicenseOrderTable>, 'client_id' | 'created_at'>[]) {
  await db.deleteFrom('license_orders').where('client_id', '=', clientId).execute();
  if (!orders.length) return;
  const at = now();
  await db.insertInto('license_orders').values(orders.map((o) => ({ ...o, client_id: clientId, created_at: at }))).execute();
}

/** Unscoped, for the licence: how many zones, and nodes, a client has. */
export const clientZoneCount = async (db: Db, clientId: number) =>
  toCount((await db.selectFrom('zones').select((eb) => eb.fn.countAll().as('n')).where('client_id', '=', clientId).executeTakeFirst())?.n as number);
export const clientNodeCount = async (db: Db, clientId: number) =>
  toCount((await db.selectFrom('nodes').select((eb) => eb.fn.countAll().as('n')).where('client_id', '=', clientId).executeTakeFirst())?.n as number);
