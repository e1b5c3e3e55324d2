import type { LuaData } from '../render';

/** What the Lua runtime holds of the live domains after a push: the list's digest and each entry as JSON, by name. */
export type HeldLive = { digest: string; entries: Map<string, string> };

/** Changed names beyond this go as the whole list. */
const DELTA_MAX = 2000;

const heldOf = (doc: LuaData): HeldLive | undefined =>
  doc.live && doc.liveDigest ? { digest: doc.liveDigest, entries: new Map(doc.live.map((d) => [d.name, JSON.stringify(d)])) } : undefined;

/**
 * The document to push given what the runtime holds (`held`, undefined when unknown): the live domains left out
 * when they did not change, as a delta (`liveDelta`: entries added or changed, names removed) when few did, else
 * whole. `next`: what the runtime holds once the push is taken.
 */
export const livePush = <T extends LuaData>({ doc, held }: { doc: T; held?: HeldLive }): { push: T; next?: HeldLive } => {
  const next = heldOf(doc);
  if (!held || !next) return { push: doc, next };
  if (held.digest === next.digest) return { push: { ...doc, live: undefined }, next: held };
  const set = (doc.live ?? []).filter((d) => held.entries.get(d.name) !== next.entries.get(d.name));
  const remove = [...held.entries.keys()].filter((name) => !next.entries.has(name));
  if (set.length + remove.length > DELTA_MAX) return { push: doc, next };
  return { push: { ...doc, live: undefined, liveDelta: { base: held.digest, set, remove } }, next };
};
