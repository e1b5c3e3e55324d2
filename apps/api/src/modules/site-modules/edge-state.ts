import type { edge } from '@edgekeep/contract';
import type { Db } from '../../db';

/**
 * The traffic modules of the served domains, for the node's desired state (data, no reload): the headers,
 * redirect rules and CORS setting of each domain's assigned modules, and its referer and header rules.
 */
export async function domainModulesOf(db: Db, domainIds: number[]): Promise<edge.DomainModules[]> {
  if (!domainIds.length) return [];
  const links = await db
    .selectFrom('domain_modules')
    .innerJoin('site_modules', 'site_modules.id', 'domain_modules.module_id')
    .select(['domain_modules.domain_id', 'domain_modules.kind', 'site_modules.id', 'site_modules.config'])
    .where('domain_modules.domain_id', 'in', domainIds)
    .execute();
  const moduleIds = [...new Set(links.map((l) => l.id))];
  const items = moduleIds.length
    ? await db.selectFrom('site_module_items').select(['module_id', 'item']).where('module_id', 'in', moduleIds).orderBy('id').execute()
    : [];
  const rules = await db.selectFrom('domain_access_rules').select(['domain_id', 'kind', 'rule']).where('domain_id', 'in', domainIds).orderBy('id').execute();
  const itemsOf = <T>(domainId: number, kind: string) => {
    const link = links.find((l) => l.domain_id === domainId && l.kind === kind);
    return link ? items.filter((i) => i.module_id === link.id).map((i) => JSON.parse(i.item) as T) : [];
  };
  return domainIds
    .map((domainId) => {
      const cors = links.find((l) => l.domain_id === domainId && l.kind === 'cors');
      const own = <T>(kind: string) => rules.filter((r) => r.domain_id === domainId && r.kind === kind).map((r) => JSON.parse(r.rule) as T);
      return {
        domainId,
        headers: itemsOf<edge.CustomHeader>(domainId, 'customHeader'),
        redirects: itemsOf<edge.RedirectRule>(domainId, 'urlRedirect'),
        cors: cors ? (JSON.parse(cors.config) as edge.Cors) : null,
        referers: own<edge.RefererRule>('referer'),
        headerRules: own<edge.HeaderRule>('header'),
      };
    })
    .filter((d) => d.headers.length || d.redirects.length || d.cors || d.referers.length || d.headerRules.length);
}
