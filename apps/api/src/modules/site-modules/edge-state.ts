import type { edge } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import type { AppDeps } from '../../deps';
import { basicAuthOf } from '../basic-auth/repo';
import { accessRulesOfDomains, itemsOfModules, moduleLinksOfDomains, wafConfigsOfDomains } from './repo';
import { keyOf } from './token-auth';
import { readAccessRule, readCorsConfig, readItem, readTokenConfig, readWafConfig, type AccessRuleKind, type ItemKind } from './stored';

/**
 * The traffic modules of the served domains, for the node's desired state (data, no reload): the headers,
 * redirect rules and CORS setting of each domain's assigned modules, and its referer and header rules.
 */
async function domainModulesOf(deps: Pick<AppDeps, 'db' | 'secrets'>, domains: { id: number; siteId: number }[]): Promise<edge.DomainModules[]> {
  if (!domains.length) return [];
  const { db } = deps;
  const domainIds = domains.map((d) => d.id);
  const basicAuth = await basicAuthOf(db, [...new Set(domains.map((d) => d.siteId))]);
  const links = await moduleLinksOfDomains(db, domainIds);
  const moduleIds = [...new Set(links.map((l) => l.id))];
  const items = moduleIds.length ? await itemsOfModules(db, moduleIds) : [];
  const rules = await accessRulesOfDomains(db, domainIds);
  const itemsOf = <K extends ItemKind>(domainId: number, kind: K) => {
    const link = links.find((l) => l.domain_id === domainId && l.kind === kind);
    return link ? items.filter((i) => i.module_id === link.id).map((i) => readItem(kind, i.item)) : [];
  };
  return domains
    .map(({ id: domainId, siteId }) => {
      const cors = links.find((l) => l.domain_id === domainId && l.kind === 'cors');
      const token = links.find((l) => l.domain_id === domainId && l.kind === 'tokenAuth');
      const own = <K extends AccessRuleKind>(kind: K) => rules.filter((r) => r.domain_id === domainId && r.kind === kind).map((r) => readAccessRule(kind, r.rule));
      return {
        domainId,
        headers: itemsOf(domainId, 'customHeader'),
        redirects: itemsOf(domainId, 'urlRedirect'),
        cors: cors ? readCorsConfig(cors.config) : null,
        referers: own('referer'),
        headerRules: own('header'),
        rewrites: itemsOf(domainId, 'proxyRewrite'),
        tokenAuth: token
          ? { key: keyOf(deps, token.config), scope: readTokenConfig(token.config).scope, paths: itemsOf(domainId, 'tokenAuth').map((p) => p.path) }
          : null,
        basicAuth: basicAuth.get(siteId) ?? [],
      };
    })
    .filter((d) => d.headers.length || d.redirects.length || d.cors || d.referers.length || d.headerRules.length || d.rewrites.length || d.tokenAuth || d.basicAuth.length);
}

/** The WAF setting of each domain that has a WAF module: structure, so the nodes reload when it changes. */
async function wafByDomain(db: AppDeps['db'], domainIds: number[]) {
  if (!domainIds.length) return new Map<number, edge.WafSetting>();
  const rows = await wafConfigsOfDomains(db, domainIds);
  return new Map(rows.map((r) => [r.domain_id, readWafConfig(r.config)]));
}

/** The domains' modules: each one's WAF setting in its structure, its traffic modules in the data. */
export const siteModulesEdge: EdgeFeature = {
  name: 'site modules',
  domains: async ({ deps }, domains) => {
    const wafs = await wafByDomain(deps.db, domains.map((d) => d.id));
    return new Map(domains.map((d) => [d.id, { waf: wafs.get(d.id) ?? null }]));
  },
  domainModules: ({ deps }, sites) => domainModulesOf(deps, sites.flatMap((s) => s.domains.map((d) => ({ id: d.id, siteId: s.id })))),
};
