import { firewallRuleSchemas } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { firewallRepo } from './repo';

export async function setAdvance(deps: AppDeps, principal: Principal, siteId: number, enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await firewallRepo(deps.db, site).setAdvance(enabled ? 1 : 0);
  await sitesChanged(deps, [site]);
}

export async function firewallSettings(deps: AppDeps, principal: Principal, siteId: number) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const lists: Record<string, { total: number; enabled: number }> = {};
  for (const list of ['blacklist', 'whitelist', ...firewallRuleSchemas.RULE_KIND_NAMES]) lists[list] = { total: 0, enabled: 0 };
  const { entries, advance, blockedIPs } = await firewallRepo(deps.db, site).overview();
  for (const r of entries) {
    const counts = (lists[r.list] ??= { total: 0, enabled: 0 });
    counts.total += 1;
    counts.enabled += r.enabled;
  }
  return { advance, lists, blockedIPs };
}
