import { Codes, type siteSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { domainsRepo } from '../domains/repo';
import { reachSite, type ReachedSite } from '../sites/repo';
import { siteSettingsRepo } from './repo';
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

async function assertSiteDomains(deps: AppDeps, site: ReachedSite, ids: number[]) {
  if (!ids.length) return;
  const own = await domainsRepo(deps.db, site).among(ids);
  if (own.length !== new Set(ids).size) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'domainIDs', message: 'not a domain of the site' }] } });
}

const duplicate = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'value', message: 'Data already exists!' }] } });

export async function listDnsRecords(deps: AppDeps, principal: Principal, siteId: number, query: { page: number; pageSize: number; keyword?: string }) {
  const { repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const result = await repo.dnsRecordsPage(query);
  return { data: result.data.map(toItem), total: result.total };
}

export async function addDnsRecord(deps: AppDeps, principal: Principal, siteId: number, r: Input) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await assertSiteDomains(deps, site, r.domainIDs);
  if (await repo.dnsRecordTaken(r)) throw duplicate();
  return toItem(await repo.addDnsRecord(r));
}

export async function updateDnsRecord(deps: AppDeps, principal: Principal, siteId: number, r: Input & { id: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.dnsRecord(r.id);
  await assertSiteDomains(deps, site, r.domainIDs);
  if (await repo.dnsRecordTaken(r, r.id)) throw duplicate();
  await repo.updateDnsRecord(r.id, r);
  return toItem(await repo.dnsRecord(r.id));
}

export async function removeDnsRecords(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.removeDnsRecords(ids);
}

/** The site's domains a record is for (domains removed since are left out). */
export async function dnsRecordDomains(deps: AppDeps, principal: Principal, siteId: number, dnsId: number) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const ids = readJson('site_dns_records.domain_ids', idList, (await repo.dnsRecord(dnsId)).domain_ids);
  if (!ids.length) return [];
  return domainsRepo(deps.db, site).among(ids);
}
