import { liveJson, type LuaData } from '../render/lua-data';
import type { LiveDomain } from '../render/live';

/**
 * What the Lua runtime holds of the live domains after a push: the list's digest, each entry as JSON by name, and
 * the sites' lists it came from (render/live.ts keeps a site's list while the site stays the same).
 */
export type HeldLive = { digest: string; entries: Map<string, string>; lives: Set<LiveDomain[]> };

/** Changed names beyond this go as the whole list. */
const DELTA_MAX = 2000;

const heldOf = (digest: string, lives: LiveDomain[][]): HeldLive => ({
  digest,
  entries: new Map(lives.flatMap((live) => live.map((d): [string, string] => [d.name, liveJson(d)]))),
  lives: new Set(lives),
});

/**
 * The document to push given what the runtime holds (`held`, undefined when unknown; it is taken over): the live
 * domains left out when they did not change, as a delta (`liveDelta`: entries added or changed, names removed) when
 * few did, else whole. Only the sites' lists that are not the ones held are looked into. `lives`: the document's
 * live domains by site (splitLive). `next`: what the runtime holds once the push is taken.
 */
export const livePush = <T extends LuaData>({ doc, lives, held }: { doc: T; lives: LiveDomain[][]; held?: HeldLive }): { push: T; next?: HeldLive } => {
  if (!doc.live || !doc.liveDigest) return { push: doc };
  if (!held) return { push: doc, next: heldOf(doc.liveDigest, lives) };
  if (held.digest === doc.liveDigest) return { push: { ...doc, live: undefined }, next: held };
  const now = new Set(lives);
  const came = lives.filter((live) => !held.lives.has(live)).flat();
  const names = new Set(came.map((d) => d.name));
  // a name is served once in the zone: one that left a site's list and is in no new list is gone
  const remove = [...held.lives].filter((live) => !now.has(live)).flatMap((live) => live.filter((d) => !names.has(d.name)).map((d) => d.name));
  const set = came.filter((d) => held.entries.get(d.name) !== liveJson(d));
  if (set.length + remove.length > DELTA_MAX) return { push: doc, next: heldOf(doc.liveDigest, lives) };
  for (const name of remove) held.entries.delete(name);
  for (const d of set) held.entries.set(d.name, liveJson(d));
  return { push: { ...doc, live: undefined, liveDelta: { base: held.digest, set, remove } }, next: { digest: doc.liveDigest, entries: held.entries, lives: now } };
};
