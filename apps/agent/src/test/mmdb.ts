import { writeFile } from 'node:fs/promises';

/**
 * A country database in the MaxMind DB format (IPv4, 24-bit records) that maps single addresses to countries, so
 * an edge test can give loopback addresses (127.0.0.2, …) a country and connect from them: nginx then looks up
 * the real client address, as on a node.
 */
const str = (s: string) => Buffer.concat([Buffer.from([(2 << 5) | s.length]), Buffer.from(s)]);
const uint = (type: 5 | 6, bytes: number, n: number) => {
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(n, 0, bytes);
  return Buffer.concat([Buffer.from([(type << 5) | bytes]), b]);
};
const map = (entries: [string, Buffer][]) => Buffer.concat([Buffer.from([(7 << 5) | entries.length]), ...entries.flatMap(([k, v]) => [str(k), v])]);

type TreeRecord = { node: number } | { data: number } | undefined;

export const writeCountryDb = async ({ path, countries }: { path: string; countries: Record<string, string> }) => {
  const nodes: [TreeRecord, TreeRecord][] = [[undefined, undefined]];
  const data: Buffer[] = [];
  let offset = 0;
  for (const [ip, code] of Object.entries(countries)) {
    const value = map([['country_code', str(code)]]);
    const address = ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
    let node = 0;
    for (let bit = 31; bit > 0; bit--) {
      const side = (address >>> bit) & 1;
      const next = nodes[node][side];
      if (next && 'node' in next) node = next.node;
      else node = (nodes[node][side] = { node: nodes.push([undefined, undefined]) - 1 }).node;
    }
    nodes[node][address & 1] = { data: offset };
    data.push(value);
    offset += value.length;
  }
  const count = nodes.length;
  const recordValue = (r: TreeRecord) => (!r ? count : 'node' in r ? r.node : count + 16 + r.data);
  const tree = Buffer.alloc(count * 6);
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(recordValue(left), i * 6, 3);
    tree.writeUIntBE(recordValue(right), i * 6 + 3, 3);
  });
  const metadata = map([
    ['node_count', uint(6, 4, count)],
    ['record_size', uint(5, 2, 24)],
    ['ip_version', uint(5, 2, 4)],
    ['database_type', str('EdgeKeep-Test-Country')],
    ['languages', Buffer.from([0, 4])],
    ['binary_format_major_version', uint(5, 2, 2)],
    ['binary_format_minor_version', uint(5, 2, 0)],
    ['build_epoch', Buffer.concat([Buffer.from([8, 2]), Buffer.alloc(4), uint(6, 4, Math.floor(Date.now() / 1000)).subarray(1)])],
    ['description', map([])],
  ]);
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);
  await writeFile(path, Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]));
};
