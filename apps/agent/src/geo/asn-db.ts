import { access, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../sync/files';
import { ASN_SOURCE, asnRanges, type AsnSource } from './asn-data';
import { writeMmdb } from './mmdb-writer';

/** Where a node keeps its ASN database. */
export const asnDbFile = ({ stateDir }: { stateDir: string }) => join(stateDir, 'geo', 'asn.mmdb');

/**
 * Builds the ASN database at `file` unless it is there already, built from this version of the data; resolves with
 * what it wrote, or undefined when it kept the one there. The new database replaces the old in one rename, so a
 * release that names the file always finds a whole one (a running nginx keeps the one it opened until its next
 * reload); the data's version is noted beside it afterwards.
 */
export const ensureAsnDb = async ({ file, source = ASN_SOURCE }: { file: string; source?: AsnSource }) => {
  const versionFile = `${file}.version`;
  const built = await readFile(versionFile, 'utf8').catch(() => undefined);
  if (built === source.version && (await access(file).then(() => true, () => false))) return undefined;
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    const written = await writeMmdb({
      path: partial,
      databaseType: 'EdgeKeep-ASN',
      description: { en: `Autonomous system by address, from @ip-location-db/asn ${source.version} (CC BY 4.0: RouteViews, DB-IP, NRO)` },
      ranges: asnRanges(source),
    });
    await rename(partial, file);
    await writeFileAtomic({ file: versionFile, content: source.version, mode: 0o644 });
    return written;
  } finally {
    await rm(partial, { force: true });
  }
};
