import { lookup } from 'node:dns/promises';

/** A host name's addresses; throws when it has none. */
export type Lookup = (name: string) => Promise<string[]>;

/** The system resolver, as nginx resolves a server line's name at load time (/etc/hosts, then DNS): every address. */
const systemLookup: Lookup = async (name) => (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The addresses of the live domains' origin names (render/live-origins.ts). A name is looked up when it is first
 * needed and again at each refresh; a lookup that fails keeps the name's last addresses.
 */
export const createOriginNames = ({ lookup: look = systemLookup }: { lookup?: Lookup } = {}) => {
  const known = new Map<string, string[]>();

  const resolve = async (name: string) => {
    const addresses = await look(name).catch(() => undefined);
    if (!addresses?.length) return false;
    const sorted = [...new Set(addresses)].sort();
    if (known.get(name)?.join() === sorted.join()) return false;
    known.set(name, sorted);
    return true;
  };

  return {
    addresses: known as ReadonlyMap<string, string[]>,
    /** Looks up the names not known yet; true when one got addresses. */
    learn: async (names: string[]) => (await Promise.all(names.filter((n) => !known.has(n)).map(resolve))).some(Boolean),
    /** Looks every name up again and forgets the names no longer used; true when an address changed. */
    refresh: async (names: string[]) => {
      const used = new Set(names);
      for (const name of known.keys()) if (!used.has(name)) known.delete(name);
      return (await Promise.all(names.map(resolve))).some(Boolean);
    },
  };
};

export type OriginNames = ReturnType<typeof createOriginNames>;
