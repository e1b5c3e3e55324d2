import { firewallRuleSchemas } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';

export async function setAdvance(deps: AppDeps, principal: Principal, siteId: number, enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const advance = enabled ? 1 : 0;
  const updated = await deps.db.updateTable('site_firewall_settings').set({ advance }).where('site_id', '=', siteId).executeTakeFirst();
  if (!Number(updated.numUpdatedRows)) await deps.db.insertInto('site_firewall_settings').values({ site_id: siteId, advance }).execute();
  await sitesChanged(deps, [site]);
}

export async function firewallSettings(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const lists: Record<string, { total: number; enabled: number }> = {};
  for (const list of ['blacklist', 'whitelist', ...firewallRuleSchemas.RULE_KIND_NAMES]) lists[list] = { total: 0, enabled: 0 };
  const ips = await deps.db.selectFrom('site_ip_rules').select(['list', 'enabled']).where('site_id', '=', siteId).execute();
  const rules = await deps.db.selectFrom('site_firewall_rules').select(['kind as list', 'enabled']).where('site_id', '=', siteId).execute();
  for (const r of [...ips, ...rules]) {
    const counts = (lists[r.list] ??= { total: 0, enabled: 0 });
    counts.total += 1;
    counts.enabled += r.enabled;
  }
  const setting = await deps.db.selectFrom('site_firewall_settings').select('advance').where('site_id', '=', siteId).executeTakeFirst();
  const blocked = await deps.db
    .selectFrom('blocked_ips')
    .select((eb) => eb.fn.count<number>('ip').distinct().as('n'))
    .where('site_id', '=', siteId)
    .where('expires_at', '>', now())
    .executeTakeFirst();
  return { advance: setting?.advance === 1, lists, blockedIPs: toCount(blocked?.n) };
}
