import { toCount } from '../../db';
import type { AppDeps } from '../../deps';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';
import { registerUsageCounter } from './limits';

/** The root client whose license covers what an account creates. */
export async function licensedClientOf(deps: AppDeps, accountId: number) {
  const account = await findAccount(deps.db, accountId);
  return (account && (await tenantRootId(deps, account))) ?? accountId;
}

const count = async (q: Promise<{ n: unknown } | undefined>) => toCount(((await q)?.n ?? 0) as number);

/** What each kind counts for a client's license: its zones, its zones' nodes, the sites on its products, their domains. */
export function registerUsageCounters() {
  registerUsageCounter('zone', (deps, clientId) =>
    count(deps.db.selectFrom('zones').select((eb) => eb.fn.countAll().as('n')).where('client_id', '=', clientId).executeTakeFirst()),
  );
  registerUsageCounter('node', (deps, clientId) =>
    count(deps.db.selectFrom('nodes').select((eb) => eb.fn.countAll().as('n')).where('client_id', '=', clientId).executeTakeFirst()),
  );
  registerUsageCounter('site', (deps, clientId) =>
    count(
      deps.db
        .selectFrom('sites')
        .innerJoin('products', 'products.id', 'sites.product_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('products.client_id', '=', clientId)
        .executeTakeFirst(),
    ),
  );
  registerUsageCounter('domain', (deps, clientId) =>
    count(
      deps.db
        .selectFrom('domains')
        .innerJoin('sites', 'sites.id', 'domains.site_id')
        .innerJoin('products', 'products.id', 'sites.product_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('products.client_id', '=', clientId)
        .executeTakeFirst(),
    ),
  );
}
