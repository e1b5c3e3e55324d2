import { infraSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import { now, type Db } from '../../db';
import type { DnsSettingTable } from '../../db/schema-dns';
import { paginate } from '../../db/paging';

const contents = z.array(z.string());
const resolutionRecords = z.array(infraSchemas.resolutionRecord);
export const parseRecords = (json: string) => contents.parse(JSON.parse(json));

// Settings: one row per client.
export const findSetting = (db: Db, clientId: number) => db.selectFrom('dns_settings').selectAll().where('client_id', '=', clientId).executeTakeFirst();
export const configuredClients = async (db: Db) => (await db.selectFrom('dns_settings').select('client_id').orderBy('client_id').execute()).map((r) => r.client_id);

export async function saveSetting(db: Db, row: DnsSettingTable) {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('dns_settings')
      .values(row)
      .onConflict((oc) => oc.column('client_id').doUpdateSet({ type: row.type, api_url: row.api_url, server_id: row.server_id, api_key_sealed: row.api_key_sealed, ttl: row.ttl, updated_at: row.updated_at }))
      .execute();
    await tx.updateTable('accounts').set({ dns_type: row.type }).where('id', '=', row.client_id).execute();
  });
}

/** The site CNAMEs of the client's zones with what they answer now (the resolution rows). */
export async function resolutionsOfClient(db: Db, clientId: number) {
  const rows = await db
    .selectFrom('dns_resolutions as r')
    .innerJoin('zones', 'zones.id', 'r.zone_id')
    .select(['r.cname', 'r.records'])
    .where('zones.client_id', '=', clientId)
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({ cname: r.cname.toLowerCase(), records: resolutionRecords.parse(JSON.parse(r.records)) }));
}
export const zoneIdsOfClient = async (db: Db, clientId: number) =>
  (await db.selectFrom('zones').select('id').where('client_id', '=', clientId).execute()).map((z) => z.id);

// Record sets: what the provider was last asked to hold; synced 0 are the unprocessed tasks.
export const rrsetsOf = (db: Db, clientId: number) => db.selectFrom('dns_rrsets').selectAll().where('client_id', '=', clientId).execute();
export const pendingOf = (db: Db, clientId: number) =>
  db.selectFrom('dns_rrsets').selectAll().where('client_id', '=', clientId).where('synced', '=', 0).orderBy('id').execute();
export const pendingCount = async (db: Db, clientId: number) =>
  Number((await db.selectFrom('dns_rrsets').select((eb) => eb.fn.countAll().as('n')).where('client_id', '=', clientId).where('synced', '=', 0).executeTakeFirstOrThrow()).n);

type Want = { zone: string; name: string; type: string; records: string[] };
export async function wantRrset(db: Db, clientId: number, want: Want) {
  const records = JSON.stringify(want.records);
  const values = { client_id: clientId, zone: want.zone, name: want.name, type: want.type, records, synced: 0 as const, attempts: 0, last_error: null, updated_at: now() };
  await db
    .insertInto('dns_rrsets')
    .values(values)
    .onConflict((oc) => oc.columns(['client_id', 'name', 'type']).doUpdateSet({ zone: want.zone, records, synced: 0, attempts: 0, last_error: null, updated_at: values.updated_at }))
    .execute();
}

/** Marks sets taken, unless they changed since they were sent; deleted sets are forgotten. */
export async function markTaken(db: Db, sent: { id: number; records: string }[]) {
  for (const s of sent) {
    if (s.records === '[]') await db.deleteFrom('dns_rrsets').where('id', '=', s.id).where('records', '=', s.records).execute();
    else await db.updateTable('dns_rrsets').set({ synced: 1, last_error: null }).where('id', '=', s.id).where('records', '=', s.records).execute();
  }
}
export async function markFailed(db: Db, ids: number[], error: string) {
  if (!ids.length) return;
  await db
    .updateTable('dns_rrsets')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error.slice(0, 1000), updated_at: now() }))
    .where('id', 'in', ids)
    .execute();
}
export async function markAllPending(db: Db, clientId: number) {
  await db.updateTable('dns_rrsets').set({ synced: 0, attempts: 0, last_error: null, updated_at: now() }).where('client_id', '=', clientId).execute();
}

export async function listPending(db: Db, clientId: number, page: { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend' }) {
  const q = db.selectFrom('dns_rrsets').selectAll().where('client_id', '=', clientId).where('synced', '=', 0);
  return paginate(q, { page, sortable: { name: 'name', updatedAt: 'updated_at', attempts: 'attempts' }, defaultSort: { column: 'id', order: 'asc' }, idColumn: 'id' });
}

// CNAME domains.
const cnames = (db: Db, clientId: number) => db.selectFrom('dns_cnames').selectAll().where('client_id', '=', clientId);
export const enabledCnames = (db: Db, clientId: number) => cnames(db, clientId).where('disabled', '=', 0).orderBy('domain').execute();
export const findCname = (db: Db, clientId: number, id: number) => cnames(db, clientId).where('id', '=', id).executeTakeFirst();
export const findCnameByDomain = (db: Db, clientId: number, domain: string) => cnames(db, clientId).where('domain', '=', domain).executeTakeFirst();
export const cnamesIn = (db: Db, clientId: number, ids: number[]) => cnames(db, clientId).where('id', 'in', ids).execute();

export function listCnames(db: Db, clientId: number, query: { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; domain?: string }) {
  let q = cnames(db, clientId);
  if (query.domain) q = q.where('domain', 'like', `%${query.domain.toLowerCase()}%`);
  return paginate(q, { page: query, sortable: { domain: 'domain', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'domain', order: 'asc' }, idColumn: 'id' });
}
export async function insertCname(db: Db, clientId: number, v: { domain: string; enabled: boolean; memo: string }) {
  const at = now();
  const row = await db
    .insertInto('dns_cnames')
    .values({ client_id: clientId, domain: v.domain, disabled: v.enabled ? 0 : 1, memo: v.memo, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
export async function updateCname(db: Db, clientId: number, id: number, v: { enabled?: boolean; memo?: string }) {
  await db
    .updateTable('dns_cnames')
    .set({ ...(v.enabled === undefined ? {} : { disabled: v.enabled ? 0 : 1 }), ...(v.memo === undefined ? {} : { memo: v.memo }), updated_at: now() })
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .execute();
}
export async function deleteCnames(db: Db, clientId: number, ids: number[]) {
  await db.deleteFrom('dns_cnames').where('client_id', '=', clientId).where('id', 'in', ids).execute();
}
