import { licenseSchemas } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { clientLicenseView } from './limits';
import { licenseCounts, rootClientCount } from './repo';
import { clientOf } from './service';

/** The admin dashboard's counts: root clients, licenses, those issued, and issued ones expiring within 30 days. */
export async function licenseOverview(deps: AppDeps) {
  const nowIso = new Date().toISOString();
  const soonIso = new Date(Date.now() + licenseSchemas.EXPIRING_SOON_DAYS * 86_400_000).toISOString();
  const counts = await licenseCounts(deps.db, nowIso, soonIso);
  return { clients: await rootClientCount(deps.db), licenses: counts.licenses, issued: counts.issued, expiringSoon: counts.soon };
}

/** A root client's license with its usage, as the client's own system screen shows it. */
export async function usageOfClient(deps: AppDeps, clientId: number) {
  await clientOf(deps, clientId);
  return clientLicenseView(deps, clientId);
}
