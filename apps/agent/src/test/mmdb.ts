import { writeMmdb, type MmdbData, type MmdbRange } from '../geo/mmdb-writer';

/** An address as the mmdb writer takes it: IPv4 as a 32-bit number, IPv6 as 128 bits. */
export const parseAddress = (ip: string): { ipVersion: 4 | 6; value: bigint } => {
  if (!ip.includes(':')) return { ipVersion: 4, value: ip.split('.').reduce((n, part) => (n << 8n) | BigInt(part), 0n) };
  const groups = (s: string) => (s ? s.split(':') : []);
  const [head, tail] = ip.split('::').map(groups);
  const all = tail ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  return { ipVersion: 6, value: all.reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n) };
};

/** The addresses from `from` to `to` (just `from` without it), both of one IP version, with their record. */
export const range = ({ from, to = from, data }: { from: string; to?: string; data: MmdbData }): MmdbRange => {
  const [start, end] = [parseAddress(from), parseAddress(to)];
  return { ipVersion: start.ipVersion, start: start.value, end: end.value, data };
};

/**
 * A country database that maps single addresses to countries, so an edge test can give loopback addresses
 * (127.0.0.2, …) a country and connect from them: nginx then looks up the real client address, as on a node.
 */
export const writeCountryDb = ({ path, countries }: { path: string; countries: Record<string, string> }) =>
  writeMmdb({
    path,
    databaseType: 'EdgeKeep-Test-Country',
    ranges: Object.entries(countries).map(([ip, code]) => range({ from: ip, data: { country_code: code } })),
  });
