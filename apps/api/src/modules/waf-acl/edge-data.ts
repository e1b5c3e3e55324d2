import type { edge } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import type { Db } from '../../db';
import { enabledAnticcRulesOfSites } from '../anticc/repo';
import { enabledRulesOfModules, modulesOfDomains } from './repo';
import { readConditions } from './stored';

type Sites = edge.DesiredStateInput['structure']['sites'];

/**
 * Each served site's advanced firewall: every luaAcl module assigned to a served domain with its enabled rules
 * in priority order, and the enabled anti-CC rules. Sites with neither are left out.
 */
async function wafOf(db: Db, sites: Sites): Promise<Map<number, edge.SiteWaf>> {
  const out = new Map<number, edge.SiteWaf>();
  if (!sites.length) return out;
  const siteIds = sites.map((s) => s.id);
  const domainName = new Map(sites.flatMap((s) => s.domains.map((d) => [d.id, d.name] as const)));
  const assigned = domainName.size ? await modulesOfDomains(db, [...domainName.keys()]) : [];
  const moduleIds = [...new Set(assigned.map((a) => a.module_id))];
  const rules = moduleIds.length ? await enabledRulesOfModules(db, moduleIds) : [];
  const anticc = await enabledAnticcRulesOfSites(db, siteIds);
  for (const siteId of siteIds) {
    const acl = moduleIds
      .filter((m) => assigned.some((a) => a.module_id === m && a.site_id === siteId))
      .map((m) => ({
        id: m,
        domains: assigned.filter((a) => a.module_id === m).map((a) => domainName.get(a.domain_id) as string),
        rules: rules.filter((r) => r.module_id === m).map((r) => ({
          id: r.id, logic: r.logic, conditions: readConditions(r.conditions),
          action: r.action as edge.AclRule['action'], redirectURL: r.redirect_url, blockSeconds: r.block_seconds,
        })),
      }))
      .filter((m) => m.rules.length);
    const cc = anticc.filter((r) => r.site_id === siteId).map((r) => ({
      id: r.id, urlRegex: r.url_regex, seconds: r.seconds, times: r.times, type: r.type as edge.SiteWaf['anticc'][number]['type'],
    }));
    if (acl.length || cc.length) out.set(siteId, { acl, anticc: cc });
  }
  return out;
}

/** Each site's advanced firewall, in its data. */
export const wafAclEdge: EdgeFeature = {
  name: 'advanced firewall',
  siteData: async ({ deps }, sites) => new Map([...(await wafOf(deps.db, sites))].map(([siteId, waf]) => [siteId, { waf }])),
};
