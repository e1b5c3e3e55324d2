import { licenseSchemas } from '@edgekeep/contract';
import { toCount } from '../../db';
import type { AppDeps } from '../../deps';
import { clientLicenseView } from './limits';
import { clientOf } from './service';

/** The admin dashboard's counts: root clients, licenses, those issued, and issued ones expiring within 30 days. */
export async function licenseOverview(deps: AppDeps) {
  const nowIso = new Date().toISOString();
  const soonIso = new Date(Date.now() + licenseSchemas.EXPIRING_SOON_DAYS * 86_400_000).toISOString();
  const row = await deps.db
    .selectFrom('licenses')
    .select((eb) => [
      eb.fn.countAll().as('licenses'),
      eb.fn.count('license_key').as('issued'),
      eb.fn
        .sum(eb.case().when(eb.and([eb('license_key', 'is not', null), eb('expires_at', '>', nowIso), eb('expires_at', '<=', soonIso)])).then(1).else(0).end())
        .as('soon'),
    ])
    .executeTakeFirstOrThrow();
  const clients = await deps.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('auth', '=', 'client')
    .where('is_root', '=', 1)
    .executeTakeFirstOrThrow();
  return {
    clients: toCount(clients.n),
    licenses: toCount(row.licenses),
    issued: toCount(row.issued),
    expiringSoon: toCount(row.soon),
  };
}

/** A root client's license with its usage, as the client's own system screen shows it. */
export async function usageOfClient(deps: AppDeps, clientId: number) {
  await clientOf(deps, clientId);
  return clientLicenseView(deps, clientId);
}
