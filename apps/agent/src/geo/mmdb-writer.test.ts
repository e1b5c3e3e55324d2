import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Reader } from 'mmdb-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddress, range } from '../test/mmdb';
import { writeMmdb, type MmdbData, type MmdbRange } from './mmdb-writer';

type Asn = { autonomous_system_number: number; autonomous_system_organization: string };
const as = (autonomous_system_number: number, autonomous_system_organization: string) => ({ autonomous_system_number, autonomous_system_organization });
const CLOUDFLARE = as(13335, 'Cloudflare, Inc.');
const GOOGLE = as(15169, 'Google LLC');

describe('the mmdb writer, read back by an independent reader', () => {
  let dir: string;
  let n = 0;
  /** Writes ranges into a fresh file and opens it with mmdb-lib. */
  const build = async (ranges: MmdbRange[], options: { recordSize?: 24 | 28 | 32 } = {}) => {
    const path = join(dir, `db-${n++}.mmdb`);
    const written = await writeMmdb({ path, databaseType: 'EdgeKeep-Test', description: { en: 'test data' }, ranges, ...options });
    const bytes = await readFile(path);
    return { written, bytes, reader: new Reader<MmdbData>(bytes) };
  };
  /** The bytes between the search tree (and its 16-byte separator) and the metadata marker. */
  const dataSectionSize = ({ bytes, reader }: { bytes: Buffer; reader: Reader<MmdbData> }) =>
    bytes.lastIndexOf(Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')])) - reader.metadata.searchTreeSize - 16;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-mmdb-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds IPv4 and IPv6 ranges up to their edges, and no record outside them', async () => {
    const { reader, written } = await build([
      range({ from: '1.0.0.0', to: '1.0.0.255', data: CLOUDFLARE }),
      range({ from: '8.8.4.0', to: '8.8.8.255', data: GOOGLE }),
      range({ from: '10.0.0.5', to: '10.0.3.250', data: as(64500, 'odd edges') }),
      range({ from: '2001:4860::', to: '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff', data: GOOGLE }),
      range({ from: '2606:4700::7', to: '2606:4700::1:3', data: CLOUDFLARE }),
    ]);
    const lookup = (ip: string) => reader.get(ip) as Asn | null;
    expect(lookup('1.0.0.0')).toEqual(CLOUDFLARE);
    expect(lookup('1.0.0.255')).toEqual(CLOUDFLARE);
    expect(lookup('0.255.255.255')).toBeNull();
    expect(lookup('1.0.1.0')).toBeNull();
    expect(lookup('8.8.4.0')).toEqual(GOOGLE);
    expect(lookup('8.8.6.77')).toEqual(GOOGLE);
    expect(lookup('8.8.8.255')).toEqual(GOOGLE);
    expect(lookup('8.8.9.0')).toBeNull();
    expect(lookup('10.0.0.4')).toBeNull();
    expect(lookup('10.0.0.5')?.autonomous_system_number).toBe(64500);
    expect(lookup('10.0.3.250')?.autonomous_system_number).toBe(64500);
    expect(lookup('10.0.3.251')).toBeNull();
    expect(lookup('2001:4860::')).toEqual(GOOGLE);
    expect(lookup('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')).toEqual(GOOGLE);
    expect(lookup('2001:4861::')).toBeNull();
    expect(lookup('2606:4700::6')).toBeNull();
    expect(lookup('2606:4700::7')).toEqual(CLOUDFLARE);
    expect(lookup('2606:4700::1:3')).toEqual(CLOUDFLARE);
    expect(lookup('2606:4700::1:4')).toBeNull();
    expect(lookup('192.0.2.1')).toBeNull();
    expect(lookup('::1')).toBeNull();
    expect(reader.metadata).toMatchObject({
      ipVersion: 6,
      recordSize: 24,
      nodeCount: written.nodeCount,
      databaseType: 'EdgeKeep-Test',
      description: { en: 'test data' },
      languages: ['en'],
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
    });
  });

  it('answers IPv4 addresses written as IPv6 (::a.b.c.d and ::ffff:a.b.c.d) from the IPv4 ranges', async () => {
    const { reader } = await build([range({ from: '104.16.0.0', to: '104.31.255.255', data: CLOUDFLARE })]);
    expect(reader.get('::ffff:104.16.1.1')).toEqual(CLOUDFLARE);
    expect(reader.get('::104.31.255.255')).toEqual(CLOUDFLARE);
    expect(reader.get('::ffff:104.32.0.0')).toBeNull();
  });

  it('agrees with a linear search over many random ranges', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const ranges: MmdbRange[] = [];
    // 300 IPv4 ranges over the whole space, 100 IPv6 ones from 2000::, each in a slot of its own, of lengths from 1 up.
    for (const [ipVersion, base, slot, count] of [[4, 0n, 2n ** 32n / 300n, 300], [6, 2n ** 125n, 2n ** 110n, 100]] as const) {
      const room = Number(slot - 2000n < 2n ** 40n ? slot - 2000n : 2n ** 40n);
      for (let i = 0; i < count; i++) {
        const start = base + BigInt(i) * slot + 1n + BigInt(Math.floor(random() * 1000));
        ranges.push({ ipVersion, start, end: start + BigInt(Math.floor(random() ** 4 * room)), data: as(i % 7, `org ${i % 7}`) });
      }
    }
    const { reader } = await build(ranges);
    const toIp = (ipVersion: 4 | 6, v: bigint) =>
      ipVersion === 4
        ? [24n, 16n, 8n, 0n].map((s) => (v >> s) & 255n).join('.')
        : [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => ((v >> s) & 0xffffn).toString(16)).join(':');
    const probes = ranges.flatMap((r) => [r.start - 1n, r.start, (r.start + r.end) / 2n, r.end, r.end + 1n].map((v) => [r.ipVersion, v] as const));
    for (const [ipVersion, v] of probes) {
      const expected = ranges.find((r) => r.ipVersion === ipVersion && r.start <= v && v <= r.end)?.data ?? null;
      expect(reader.get(toIp(ipVersion, v)), toIp(ipVersion, v)).toEqual(expected);
    }
  });

  it('writes each distinct record once', async () => {
    const many = await build(Array.from({ length: 50 }, (_, i) => range({ from: `10.0.${i}.0`, data: i % 2 ? CLOUDFLARE : GOOGLE })));
    const two = await build([range({ from: '10.0.0.0', data: GOOGLE }), range({ from: '10.0.1.0', data: CLOUDFLARE })]);
    expect(many.reader.get('10.0.49.0')).toEqual(CLOUDFLARE);
    expect(dataSectionSize(many)).toBe(dataSectionSize(two));
  });

  it('uses 28- and 32-bit records when asked or needed', async () => {
    const ranges = [range({ from: '192.0.2.0', to: '192.0.2.127', data: GOOGLE }), range({ from: '2001:db8::', data: CLOUDFLARE })];
    for (const recordSize of [28, 32] as const) {
      const { reader } = await build(ranges, { recordSize });
      expect(reader.metadata.recordSize).toBe(recordSize);
      expect(reader.get('192.0.2.127')).toEqual(GOOGLE);
      expect(reader.get('192.0.2.128')).toBeNull();
      expect(reader.get('2001:db8::')).toEqual(CLOUDFLARE);
      expect(reader.get('2001:db8::1')).toBeNull();
    }
  });

  it('moves to 28-bit records when a record lies beyond what 24 bits can point at', async () => {
    const big = { autonomous_system_number: 1, autonomous_system_organization: 'z'.repeat(2 ** 24) };
    const { reader } = await build([
      range({ from: '192.0.2.0', data: big }),
      range({ from: '192.0.2.1', data: GOOGLE }),
      range({ from: '2001:db8::1', data: CLOUDFLARE }),
    ]);
    expect(reader.metadata.recordSize).toBe(28);
    expect(reader.get('192.0.2.0')).toEqual(big);
    expect(reader.get('192.0.2.1')).toEqual(GOOGLE);
    expect(reader.get('2001:db8::1')).toEqual(CLOUDFLARE);
    expect(reader.get('2001:db8::')).toBeNull();
  });

  it('keeps long strings, unicode and the whole uint32 range', async () => {
    const long = 'x'.repeat(300);
    const longer = 'y'.repeat(70_000);
    const { reader } = await build([
      range({ from: '192.0.2.1', data: { autonomous_system_number: 4_294_967_295, autonomous_system_organization: long } }),
      range({ from: '192.0.2.2', data: { autonomous_system_number: 0, autonomous_system_organization: 'Ünïcødé 网络 "quoted"' } }),
      range({ from: '192.0.2.3', data: { autonomous_system_number: 65_536, autonomous_system_organization: longer } }),
    ]);
    expect(reader.get('192.0.2.1')).toEqual({ autonomous_system_number: 4_294_967_295, autonomous_system_organization: long });
    expect(reader.get('192.0.2.2')).toEqual({ autonomous_system_number: 0, autonomous_system_organization: 'Ünïcødé 网络 "quoted"' });
    expect(reader.get('192.0.2.3')).toEqual({ autonomous_system_number: 65_536, autonomous_system_organization: longer });
  });

  it('refuses overlapping ranges, ranges outside their IP version, all of IPv4 and numbers that are no uint32', async () => {
    const data = GOOGLE;
    await expect(build([range({ from: '10.0.0.0', to: '10.0.0.255', data }), range({ from: '10.0.0.128', data })])).rejects.toThrow(/overlap/);
    await expect(build([range({ from: '10.0.0.7', data }), range({ from: '10.0.0.0', to: '10.0.0.255', data })])).rejects.toThrow(/overlap/);
    await expect(build([range({ from: '::ffff:a00:0', to: '::ffff:a00:ff', data })])).rejects.toThrow(/overlap/);
    await expect(build([{ ipVersion: 4, start: 0n, end: 2n ** 32n, data }])).rejects.toThrow(/not an IPv4 range/);
    await expect(build([{ ipVersion: 6, start: 5n, end: 4n, data }])).rejects.toThrow(/not an IPv6 range/);
    await expect(build([range({ from: '0.0.0.0', to: '255.255.255.255', data })])).rejects.toThrow(/all of IPv4/);
    await expect(build([range({ from: '10.0.0.1', data: { asn: -1 } })])).rejects.toThrow(/unsigned 32-bit/);
    await expect(build([range({ from: '10.0.0.1', data: { asn: 1.5 } })])).rejects.toThrow(/unsigned 32-bit/);
  });

  it('parses the addresses the tests write', () => {
    expect(parseAddress('1.2.3.4')).toEqual({ ipVersion: 4, value: 0x01020304n });
    expect(parseAddress('2001:db8::1')).toEqual({ ipVersion: 6, value: 0x20010db8_00000000_00000000_00000001n });
    expect(parseAddress('::')).toEqual({ ipVersion: 6, value: 0n });
    expect(parseAddress('1:2:3:4:5:6:7:8')).toEqual({ ipVersion: 6, value: 0x0001000200030004_0005000600070008n });
  });
});
