import { getDomain } from 'tldts';
import type { AppDeps } from '../../deps';

const CHUNK = 100;

/** A name's registered domain (its public suffix and one label more, private suffixes included); the name itself where it has none. */
export function registeredDomain(name: string) {
  const bare = name.toLowerCase().replace(/^\*\./, '');
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

/**
 * The names whose registered domain another tenant (the owning user of a site) serves an enabled name under: a
 * wildcard or any other name there could take that tenant's traffic, so enabling it is refused (401001). A disabled
 * name holds nothing, as the spec's one-enabled-site rule has it.
 */
export async function claimedByOthers(deps: AppDeps, ownerId: number, names: string[]) {
  const byDomain = new Map<string, string[]>();
  for (const name of names) byDomain.set(registeredDomain(name), [...(byDomain.get(registeredDomain(name)) ?? []), name]);
  const domains = [...byDomain.keys()];
  const claimed = new Set<string>();
  for (let i = 0; i < domains.length; i += CHUNK) {
    const chunk = domains.slice(i, i + CHUNK);
    const rows = await deps.db
      .selectFrom('domains')
      .innerJoin('sites', 'sites.id', 'domains.site_id')
      .select('domains.name')
      .where('sites.user_id', '!=', ownerId)
      .where('domains.status', '=', 1)
      .where((eb) => eb.or(chunk.flatMap((d) => [eb('domains.name', '=', d), eb('domains.name', 'like', `%.${d}`)])))
      .execute();
    for (const row of rows) for (const name of byDomain.get(registeredDomain(row.name)) ?? []) claimed.add(name);
  }
  return claimed;
}
