import type { AppDeps } from '../../deps';

/**
 * Names for the rules that refused (`<module id>:<rule id>` of an advanced firewall rule, as the edge notes it):
 * "module / rule" for the rules of the scope's sites; any other rule keeps its key.
 */
export async function ruleLabels(deps: AppDeps, o: { siteIds: number[]; keys: string[] }) {
  const ids = o.keys.map((k) => /^(\d+):(\d+)$/.exec(k)).filter((m) => m !== null).map((m) => Number(m[2]));
  if (!ids.length || !o.siteIds.length) return (key: string) => key;
  const rules = await deps.db
    .selectFrom('waf_acl_rules')
    .innerJoin('waf_acl_modules', 'waf_acl_modules.id', 'waf_acl_rules.module_id')
    .select(['waf_acl_rules.id', 'waf_acl_rules.module_id', 'waf_acl_rules.name', 'waf_acl_modules.name as module'])
    .where('waf_acl_rules.id', 'in', ids)
    .where('waf_acl_modules.site_id', 'in', o.siteIds)
    .execute();
  const names = new Map(rules.map((r) => [`${r.module_id}:${r.id}`, `${r.module} / ${r.name}`]));
  return (key: string) => names.get(key) ?? key;
}
