import { Resolver } from 'node:dns/promises';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachSite } from '../sites/repo';
import { domainsRepo } from './repo';

type Status = 'pending' | 'active' | 'inactive';
const PARALLEL = 16;
/** Answers that say the name has no CNAME; anything else (timeout, refused, server failure) decides nothing. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);
const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A wildcard domain is checked through one name it covers. */
const probeName = (domain: string) => (domain.startsWith('*.') ? `cname-check.${domain.slice(2)}` : domain);

async function lookup(resolver: Resolver, name: string, cname: string): Promise<{ status: Status; records: string[] }> {
  try {
    const records = (await resolver.resolveCname(probeName(name))).map(bare);
    return { status: records.includes(bare(cname)) ? 'active' : 'inactive', records };
  } catch (err) {
    return { status: ABSENT.has((err as { code?: string }).code ?? '') ? 'inactive' : 'pending', records: [] };
  }
}

/** A resolver on the configured servers (DNS_RESOLVERS), the system's otherwise. */
export function resolverOf(deps: AppDeps) {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  if (deps.config.dnsResolvers.length) resolver.setServers(deps.config.dnsResolvers);
  return resolver;
}

/** Looks each domain up in DNS (all the site's domains when no ids) and stores whether it points at the site's CNAME. */
export async function checkCname(deps: AppDeps, principal: Principal, siteId: number, ids?: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const rows = ids ? await repo.some(ids) : await repo.all();
  const resolver = resolverOf(deps);
  const at = now();
  const results = [];
  // A few lookups at a time: a site may have thousands of domains, and a silent server costs a timeout each.
  for (let i = 0; i < rows.length; i += PARALLEL) {
    const batch = rows.slice(i, i + PARALLEL);
    const found = await Promise.all(batch.map((d) => lookup(resolver, d.name, site.cname)));
    for (const [j, d] of batch.entries()) {
      await repo.setCname(d.id, found[j].status, at);
      results.push({ id: d.id, name: d.name, cnameStatus: found[j].status, records: found[j].records });
    }
  }
  return results;
}
