import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import type { MmdbRange } from './mmdb-writer';

const require = createRequire(import.meta.url);
const PACKAGE = '@ip-location-db/asn';

/** Where the ASN of an address comes from: CSV files of `start,end,asn,org` with numeric addresses, and their version. */
export type AsnSource = { version: string; ipv4: string; ipv6: string };

/** The CC-BY-4.0 data the agent package carries (RouteViews, DB-IP and the RIRs' statistics through NRO). */
export const ASN_SOURCE: AsnSource = {
  version: (require(`${PACKAGE}/package.json`) as { version: string }).version,
  ipv4: require.resolve(`${PACKAGE}/asn-ipv4-num.csv`),
  ipv6: require.resolve(`${PACKAGE}/asn-ipv6-num.csv`),
};

/** One CSV line; the organisation is quoted (quotes doubled) when it holds a comma or a quote. */
export const parseAsnLine = (line: string) => {
  const [start, end, asn] = line.split(',', 3);
  const org = line.slice(start.length + end.length + asn.length + 3);
  return {
    start: BigInt(start),
    end: BigInt(end),
    asn: Number(asn),
    org: org.startsWith('"') ? org.slice(1, -1).replaceAll('""', '"') : org,
  };
};

/**
 * The ranges of one file, in its order (by start). A row that starts inside the one before it keeps only its part
 * after that one: the published data has such overlaps, and the first row wins them.
 */
async function* fileRanges(file: string, ipVersion: 4 | 6): AsyncGenerator<MmdbRange> {
  let covered = -1n;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    const row = parseAsnLine(line);
    const start = row.start > covered ? row.start : covered + 1n;
    if (start > row.end) continue;
    covered = row.end;
    yield { ipVersion, start, end: row.end, data: { autonomous_system_number: row.asn, autonomous_system_organization: row.org } };
  }
}

/** Every range of a source, IPv4 first. */
export async function* asnRanges(source: AsnSource = ASN_SOURCE): AsyncGenerator<MmdbRange> {
  yield* fileRanges(source.ipv4, 4);
  yield* fileRanges(source.ipv6, 6);
}
