import { access, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Reader } from 'mmdb-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASN_SOURCE, asnRanges, parseAsnLine, type AsnSource } from './asn-data';
import { asnDbFile, ensureAsnDb } from './asn-db';

// Rows as the package writes them: numeric addresses, organisations quoted when they hold a comma or a quote.
const IPV4 = [
  '16777216,16777471,13335,"Cloudflare, Inc."',
  '35309568,35313663,201907,"LLC ""SPUTNIK"""',
  '134743040,134744063,15169,Google LLC',
  '3596550144,3607166975,749,United States Department of Defense (DoD)',
  '3607101440,3607167999,721,DoD Network Information Center',
  '3607101441,3607101442,722,Swallowed Whole',
].join('\n');
const IPV6 = '42541956101370907050197289607612071936,42541956123659872386432207701669838847,15169,Google LLC\n';

describe('the ASN database of a node', () => {
  let dir: string;
  let source: AsnSource;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-asn-'));
    source = { version: '1.0.0', ipv4: join(dir, 'v4.csv'), ipv6: join(dir, 'v6.csv') };
    await writeFile(source.ipv4, `${IPV4}\n`);
    await writeFile(source.ipv6, IPV6);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the CSV rows, quoted organisations included', () => {
    expect(parseAsnLine('16777216,16777471,13335,"Cloudflare, Inc."')).toEqual({ start: 16777216n, end: 16777471n, asn: 13335, org: 'Cloudflare, Inc.' });
    expect(parseAsnLine('35309568,35313663,201907,"LLC ""SPUTNIK"""').org).toBe('LLC "SPUTNIK"');
    expect(parseAsnLine('1,2,3,Plain Org').org).toBe('Plain Org');
  });

  it('gives an overlap between rows to the first one', async () => {
    const ranges = [];
    for await (const r of asnRanges(source)) ranges.push([r.ipVersion, r.start, r.end, r.data.autonomous_system_number]);
    expect(ranges).toEqual([
      [4, 16777216n, 16777471n, 13335],
      [4, 35309568n, 35313663n, 201907],
      [4, 134743040n, 134744063n, 15169],
      [4, 3596550144n, 3607166975n, 749],
      [4, 3607166976n, 3607167999n, 721],
      [6, 42541956101370907050197289607612071936n, 42541956123659872386432207701669838847n, 15169],
    ]);
  });

  it('is built once per version of the data, then kept', async () => {
    const file = asnDbFile({ stateDir: join(dir, 'state') });
    expect(await ensureAsnDb({ file, source })).toMatchObject({ recordSize: 24, nodeCount: expect.any(Number) });
    const reader = new Reader(await readFile(file));
    expect(reader.get('1.0.0.1')).toEqual({ autonomous_system_number: 13335, autonomous_system_organization: 'Cloudflare, Inc.' });
    expect(reader.get('215.0.255.255')).toMatchObject({ autonomous_system_number: 749 });
    expect(reader.get('215.1.0.0')).toMatchObject({ autonomous_system_number: 721 });
    expect(reader.get('2001:4860::8888')).toMatchObject({ autonomous_system_number: 15169 });
    expect(reader.metadata.description).toEqual({ en: expect.stringContaining('@ip-location-db/asn 1.0.0') });
    const built = (await stat(file)).mtimeMs;

    expect(await ensureAsnDb({ file, source })).toBeUndefined();
    expect((await stat(file)).mtimeMs).toBe(built);
    expect(await ensureAsnDb({ file, source: { ...source, version: '1.0.1' } })).toBeDefined();
    expect(await readFile(`${file}.version`, 'utf8')).toBe('1.0.1');
    await rm(file);
    expect(await ensureAsnDb({ file, source: { ...source, version: '1.0.1' } })).toBeDefined();
    await expect(access(`${file}.partial`)).rejects.toThrow();
  });

  it('leaves no database behind when the data cannot be read', async () => {
    const file = asnDbFile({ stateDir: join(dir, 'broken') });
    await expect(ensureAsnDb({ file, source: { ...source, ipv6: join(dir, 'missing.csv') } })).rejects.toThrow();
    await expect(access(file)).rejects.toThrow();
    await expect(access(`${file}.partial`)).rejects.toThrow();
  });

  it('comes from the data package the agent depends on', async () => {
    expect(ASN_SOURCE.version).toMatch(/^\d+\.\d+\.\d+/);
    const csv = await open(ASN_SOURCE.ipv4);
    const { buffer, bytesRead } = await csv.read({ buffer: Buffer.alloc(200) }).finally(() => csv.close());
    expect(parseAsnLine(buffer.toString('utf8', 0, bytesRead).split('\n')[0]).asn).toBeGreaterThan(0);
  });
});
