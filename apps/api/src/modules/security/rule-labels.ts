import type { AppDeps } from '../../deps';
import { ruleNamesOfSites } from '../waf-acl/repo';

/**
 * Names for the rules that refused (`<module id>:<rule id>` of an advanced firewall rule, as the edge notes it):
 * "module / rule" for the rules of the scope's sites; any other rule keeps its key.
 */
export async function ruleLabels(deps: AppDeps, o: { siteIds: number[]; keys: string[] }) {
  const ids = o.keys.map((k) => /^(\d+):(\d+)$/.exec(k)).filter((m) => m !== null).map((m) => Number(m[2]));
  if (!ids.length || !o.siteIds.length) return (key: string) => key;
  const rules = await ruleNamesOfSites(deps.db, ids, o.siteIds);
  const names = new Map(rules.map((r) => [`${r.module_id}:${r.id}`, `${r.module} / ${r.name}`]));
  return (key: string) => names.get(key) ?? key;
}
