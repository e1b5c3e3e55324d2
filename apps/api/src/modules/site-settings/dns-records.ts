import { Codes, type siteSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { idList, readJson } from '../../db/json-column';

type Input = z.infer<typeof siteSettingSchemas.dnsRecordInput>;
type Row = { id: number; name: string; type: string; value: string; ttl: number; domain_ids: string; memo: string; created_at: string; updated_at: string };

const toItem = (r: Row) => ({
  id: r.id,
  name: r.name,
  type: r.type as Input['type'],
  value: r.value,
  ttl: r.ttl,
  domainIDs: readJson('site_dns_records.domain_ids', idList, r.domain_ids),
  memo: r.memo,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

async function assertSiteDomains(deps: AppDeps, siteId: number, ids: number[]) {
  if (!ids.length) return;
  const own = await deps.db.selectFrom('domains').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (own.length !== new Set(ids).size) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'domainIDs', message: 'not a domain of the site' }] } });
}

async function assertFree(deps: AppDeps, siteId: number, r: Input, except?: number) {
  let q = deps.db.selectFrom('site_dns_records').select('id').where('site_id', '=', siteId).where('name', '=', r.name).where('type', '=', r.type).where('value', '=', r.value);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'value', message: 'Data already exists!' }] } });
}

const ownRecord = async (deps: AppDeps, siteId: number, id: number) => {
  const row = await deps.db.selectFrom('site_dns_records').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  if (!row) throw notFound('DNS record');
  return row;
};

export async function listDnsRecords(deps: AppDeps, principal: Principal, siteId: number, query: { page: number; pageSize: number; keyword?: string }) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('site_dns_records').selectAll().where('site_id', '=', siteId);
  if (query.keyword) q = q.where((eb) => eb.or([eb('name', 'like', `%${query.keyword}%`), eb('value', 'like', `%${query.keyword}%`)]));
  const result = await paginate(q, { page: query, sortable: {}, defaultSort: { column: 'id', order: 'asc' } });
  return { data: result.data.map(toItem), total: result.total };
}

export async function addDnsRecord(deps: AppDeps, principal: Principal, siteId: number, r: Input) {
  await sitesRepo(deps, principal).get(siteId);
  await assertSiteDomains(deps, siteId, r.domainIDs);
  await assertFree(deps, siteId, r);
  const at = now();
  const row = await deps.db
    .insertInto('site_dns_records')
    .values({ site_id: siteId, name: r.name, type: r.type, value: r.value, ttl: r.ttl, domain_ids: JSON.stringify([...new Set(r.domainIDs)]), memo: r.memo, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toItem(row);
}

export async function updateDnsRecord(deps: AppDeps, principal: Principal, siteId: number, r: Input & { id: number }) {
  await sitesRepo(deps, principal).get(siteId);
  await ownRecord(deps, siteId, r.id);
  await assertSiteDomains(deps, siteId, r.domainIDs);
  await assertFree(deps, siteId, r, r.id);
  await deps.db
    .updateTable('site_dns_records')
    .set({ name: r.name, type: r.type, value: r.value, ttl: r.ttl, domain_ids: JSON.stringify([...new Set(r.domainIDs)]), memo: r.memo, updated_at: now() })
    .where('id', '=', r.id)
    .execute();
  return toItem(await ownRecord(deps, siteId, r.id));
}

export async function removeDnsRecords(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const owned = await deps.db.selectFrom('site_dns_records').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (owned.length !== new Set(ids).size) throw notFound('DNS record');
  await deps.db.deleteFrom('site_dns_records').where('id', 'in', ids).execute();
}

/** The site's domains a record is for (domains removed since are left out). */
export async function dnsRecordDomains(deps: AppDeps, principal: Principal, siteId: number, dnsId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const ids = readJson('site_dns_records.domain_ids', idList, (await ownRecord(deps, siteId, dnsId)).domain_ids);
  if (!ids.length) return [];
  return deps.db.selectFrom('domains').select(['id', 'name']).where('site_id', '=', siteId).where('id', 'in', ids).orderBy('name').execute();
}

export const hasDnsRecords = async (deps: AppDeps, siteId: number) =>
  (await deps.db.selectFrom('site_dns_records').select('id').where('site_id', '=', siteId).executeTakeFirst()) !== undefined;
