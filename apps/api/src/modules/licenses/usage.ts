import type { AppDeps } from '../../deps';
import { findAccount } from '../accounts/repo';
import { clientDomainCount } from '../domains/repo';
import { tenantRootId } from '../roles/service';
import { clientSiteCount } from '../sites/repo';
import { registerUsageCounter } from './limits';
import { clientNodeCount, clientZoneCount } from './repo';

/** The root client whose license covers what an account creates. */
export async function licensedClientOf(deps: AppDeps, accountId: number) {
  const account = await findAccount(deps.db, accountId);
  return (account && (await tenantRootId(deps, account))) ?? accountId;
}

/** What each kind counts for a client's license: its zones, its zones' nodes, the sites on its products, their domains. */
export function registerUsageCounters() {
  registerUsageCounter('zone', (deps, clientId) => clientZoneCount(deps.db, clientId));
  registerUsageCounter('node', (deps, clientId) => clientNodeCount(deps.db, clientId));
  registerUsageCounter('site', (deps, clientId) => clientSiteCount(deps.db, clientId));
  registerUsageCounter('domain', (deps, clientId) => clientDomainCount(deps.db, clientId));
}
