import { Codes, type domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { domainsOf, toUpstream, upstreamRow } from './rows';
import { insertDomains, parseNames } from './service';
import { readJson, stringList } from '../../db/json-column';

type S = typeof domainSettingSchemas;

export async function metaDomains(deps: AppDeps, principal: Principal, siteId: number, keyword?: string) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('domains').select(['id', 'name']).where('site_id', '=', siteId);
  if (keyword) q = q.where('name', 'like', `%${keyword.toLowerCase()}%`);
  return q.orderBy('name').orderBy('id').execute();
}

export async function simpleDomains(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['simpleDomainsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const { names, refusals } = parseNames(body.domains);
  return insertDomains(deps, site, names.map((name) => ({ name, status: 1, protocol: 'http', upstreams: body.upstreams })), refusals);
}

export async function removeByNames(deps: AppDeps, principal: Principal, siteId: number, names: string[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rows = await deps.db.selectFrom('domains').select('id').where('site_id', '=', siteId).where('name', 'in', names).execute();
  if (rows.length < new Set(names).size) throw notFound('domain');
  await deps.db.deleteFrom('domains').where('id', 'in', rows.map((r) => r.id)).execute();
  await sitesChanged(deps, [site]);
}

export async function modifyUpstreamIPs(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['modifyUpstreamIPsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainsOf(deps, siteId, body.ids);
  const r = await deps.db.updateTable('upstreams').set({ host: body.newHost }).where('domain_id', 'in', body.ids).where('host', '=', body.oldHost).executeTakeFirst();
  const changed = Number(r.numUpdatedRows);
  if (changed) await sitesChanged(deps, [site]);
  return { changed };
}

const originText = (u: ReturnType<typeof toUpstream>) => `${u.host.includes(':') ? `[${u.host}]` : u.host}:${u.port}`;

/** One line per domain: its name, then its origins (host:port), separated by spaces. */
export async function exportDomains(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const rows = await domainsOf(deps, siteId, ids);
  const ups = await deps.db.selectFrom('upstreams').selectAll().where('domain_id', 'in', ids).orderBy('id').execute();
  return rows.map((d) => [d.name, ...ups.filter((u) => u.domain_id === d.id).map((u) => originText(toUpstream(u)))].join(' ')).join('\n') + '\n';
}

/** Copies domains with their origins, protocol, balancing, port mapping and tags from one of the user's sites to another; limits apply. */
async function copyDomains(deps: AppDeps, principal: Principal, o: { from: number; to: number; ids: number[]; enabled: boolean }) {
  await sitesRepo(deps, principal).get(o.from);
  const target = await sitesRepo(deps, principal).get(o.to);
  const rows = await domainsOf(deps, o.from, o.ids);
  const ups = await deps.db.selectFrom('upstreams').selectAll().where('domain_id', 'in', o.ids).orderBy('id').execute();
  return insertDomains(
    deps,
    target,
    rows.map((d) => ({
      name: d.name,
      status: o.enabled ? 1 : 0,
      protocol: d.protocol,
      tags: readJson('domains.tags', stringList, d.tags),
      balance: d.balance,
      portMap: d.port_map,
      upstreams: ups.filter((u) => u.domain_id === d.id).map((u) => toUpstream(u)),
    })),
  );
}

export const copyToSite = (deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['copyToSiteBody']>) =>
  copyDomains(deps, principal, { from: siteId, to: body.targetSiteID, ids: body.ids, enabled: body.enabled });

export const createFrom = (deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['createFromBody']>) =>
  copyDomains(deps, principal, { from: body.sourceSiteID, to: siteId, ids: body.ids, enabled: body.enabled });

/** Replaces the origins of each chosen domain by the given list. */
export async function batchUpstreams(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['batchUpstreamsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainsOf(deps, siteId, body.ids);
  if (!body.upstreams.some((u) => u.enabled)) throw new ApiError(Codes.OriginRequired);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('upstreams').where('domain_id', 'in', body.ids).execute();
    await trx.insertInto('upstreams').values(body.ids.flatMap((id) => body.upstreams.map((u) => upstreamRow(id, u)))).execute();
    await trx.updateTable('domains').set({ updated_at: now() }).where('id', 'in', body.ids).execute();
  });
  await sitesChanged(deps, [site]);
}
