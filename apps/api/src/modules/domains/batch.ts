import { Codes, type domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { reachSite, sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { domainsRepo } from './repo';
import { toUpstream } from './rows';
import { insertDomains, parseNames } from './service';
import { readJson, stringList } from '../../db/json-column';

type S = typeof domainSettingSchemas;

export async function metaDomains(deps: AppDeps, principal: Principal, siteId: number, keyword?: string) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  return repo.names(keyword);
}

export async function simpleDomains(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['simpleDomainsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const { names, refusals } = parseNames(body.domains);
  return insertDomains(deps, site, names.map((name) => ({ name, status: 1, protocol: 'http', upstreams: body.upstreams })), refusals);
}

export async function removeByNames(deps: AppDeps, principal: Principal, siteId: number, names: string[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const ids = await repo.idsNamed(names);
  if (ids.length < new Set(names).size) throw notFound('domain');
  await repo.remove(ids);
  await sitesChanged(deps, [site]);
}

export async function modifyUpstreamIPs(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['modifyUpstreamIPsBody']>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const changed = await repo.renameUpstreamHost(await repo.some(body.ids), body.oldHost, body.newHost);
  if (changed) await sitesChanged(deps, [site]);
  return { changed };
}

const originText = (u: ReturnType<typeof toUpstream>) => `${u.host.includes(':') ? `[${u.host}]` : u.host}:${u.port}`;

/** One line per domain: its name, then its origins (host:port), separated by spaces. */
export async function exportDomains(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const rows = await repo.some(ids);
  const ups = await repo.upstreamsOf(rows);
  return rows.map((d) => [d.name, ...ups.filter((u) => u.domain_id === d.id).map((u) => originText(toUpstream(u)))].join(' ')).join('\n') + '\n';
}

/** Copies domains with their origins, protocol, balancing, port mapping and tags from one of the user's sites to another; limits apply. */
async function copyDomains(deps: AppDeps, principal: Principal, o: { from: number; to: number; ids: number[]; enabled: boolean }) {
  const { repo: source } = await reachSite(deps, principal, o.from, domainsRepo);
  const target = await sitesRepo(deps, principal).get(o.to);
  const rows = await source.some(o.ids);
  const ups = await source.upstreamsOf(rows);
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
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const rows = await repo.some(body.ids);
  if (!body.upstreams.some((u) => u.enabled)) throw new ApiError(Codes.OriginRequired);
  await repo.replaceUpstreams(rows, body.upstreams);
  await sitesChanged(deps, [site]);
}
