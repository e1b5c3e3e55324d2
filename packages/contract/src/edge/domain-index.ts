import { perObject } from '../per-object';

type Named = { name: string; certificateId: number | null };
type Lists = readonly (readonly Named[])[];

/** The domain lists of a state checked free of duplicates, and each of their names with the list that holds it. */
type NameIndex = { lists: Set<readonly Named[]>; names: Map<string, readonly Named[]> };

/** Indexes kept, the latest checked first: a node's next state is checked against its last one (an API builds several zones). */
const KEPT = 4;
const indexes: NameIndex[] = [];

/** The certificates a domain list uses, once per list. */
const certificatesOf = perObject((domains: readonly Named[]) => [...new Set(domains.flatMap((d) => (d.certificateId === null ? [] : [d.certificateId])))]);

/**
 * Whether no domain name is in two places of `lists` (a state's sites' domain lists) and every certificate they use
 * is in `certificates`; false sends the caller to its full check, which says where. The work is in proportion to the
 * lists that differ from a state checked before, not to the domains held: a state a delta or a build makes from the
 * one before keeps the lists of the sites it leaves alone (state-delta.ts, agent-gateway/state.ts), so an index of the
 * names of an earlier state is brought to this one by the lists gone and the lists added alone. Lists are never
 * changed once made.
 */
export function domainsClean(lists: Lists, certificates: ReadonlySet<number>): boolean {
  if (!lists.every((domains) => certificatesOf(domains).every((id) => certificates.has(id)))) return false;
  const now = new Set(lists);
  // one list in two places: its names are twice
  if (now.size < lists.length && lists.some((domains, i) => domains.length > 0 && lists.indexOf(domains) !== i)) return false;
  let index: NameIndex | undefined;
  let shared = 0;
  for (const kept of indexes) {
    const n = lists.reduce((sum, domains) => sum + (kept.lists.has(domains) ? 1 : 0), 0);
    if (n > shared) [index, shared] = [kept, n];
  }
  if (!index || shared * 2 < lists.length) index = { lists: new Set(), names: new Map() };
  else indexes.splice(indexes.indexOf(index), 1);
  for (const gone of index.lists) {
    if (now.has(gone)) continue;
    for (const d of gone) if (index.names.get(d.name) === gone) index.names.delete(d.name);
  }
  for (const added of now) {
    if (index.lists.has(added)) continue;
    for (const d of added) {
      // the index is left half brought: it is not kept
      if (index.names.has(d.name)) return false;
      index.names.set(d.name, added);
    }
  }
  index.lists = now;
  indexes.unshift(index);
  indexes.length = Math.min(indexes.length, KEPT);
  return true;
}
