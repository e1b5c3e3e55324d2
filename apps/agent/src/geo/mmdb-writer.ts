import { open } from 'node:fs/promises';

/**
 * Writes MaxMind DB files (format 2.0) of address ranges: one IPv6 search tree with IPv4 under ::/96 (and
 * ::ffff:0:0/96 pointing at the same subtree), where each range takes the records of the CIDR prefixes that cover it
 * exactly, and equal data records are written once.
 */

/** A data record: a map of strings and unsigned 32-bit integers. */
export type MmdbData = Record<string, string | number>;
/** An inclusive range of addresses (IPv4 ones as 32-bit numbers) and its record; ranges must not overlap. */
export type MmdbRange = { ipVersion: 4 | 6; start: bigint; end: bigint; data: MmdbData };

export type MmdbWriteOptions = {
  path: string;
  databaseType: string;
  /** By language code, e.g. `{ en: '…' }`. */
  description?: Record<string, string>;
  ranges: Iterable<MmdbRange> | AsyncIterable<MmdbRange>;
  /** The smallest record size to use; a larger one is chosen when the tree needs it. */
  recordSize?: 24 | 28 | 32;
};

// Data section types (MaxMind DB spec, "Output Data Section").
const UTF8 = 2;
const UINT16 = 5;
const UINT32 = 6;
const MAP = 7;
const UINT64 = 9;
const ARRAY = 11;

const bigEndian = (n: number, bytes: number) => Array.from({ length: bytes }, (_, i) => Math.floor(n / 256 ** (bytes - 1 - i)) % 256);

/** The control byte of a field, its extended type byte and its size bytes. */
const control = (type: number, size: number) => {
  const [bits, sizeBytes] =
    size < 29 ? [size, []] : size < 285 ? [29, [size - 29]] : size < 65_821 ? [30, bigEndian(size - 285, 2)] : [31, bigEndian(size - 65_821, 3)];
  return Buffer.from(type < 8 ? [(type << 5) | bits, ...sizeBytes] : [bits, type - 7, ...sizeBytes]);
};

const utf8 = (s: string) => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([control(UTF8, bytes.length), bytes]);
};

const uint = (type: number, n: number) => {
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
};

const map = (entries: [string, Buffer][]) => Buffer.concat([control(MAP, entries.length), ...entries.flatMap(([k, v]) => [utf8(k), v])]);

const encodeData = (data: MmdbData) =>
  map(
    Object.entries(data).map(([key, value]) => {
      if (typeof value === 'string') return [key, utf8(value)];
      if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new Error(`${key}: ${value} is not an unsigned 32-bit integer`);
      return [key, uint(UINT32, value)];
    }),
  );

// Records while building: 0 is empty (the root is no one's child), a node's index, or DATA with an offset in the data section.
const DATA = 0x8000_0000;

/** A 128-bit address (IPv4 ones under ::/96) as four 32-bit words, most significant first. */
type Words = number[];
const wordsOf = (address: bigint): Words => [96n, 64n, 32n, 0n].map((shift) => Number((address >> shift) & 0xffff_ffffn));
const bitOf = (w: Words, i: number) => (w[i >>> 5] >>> (31 - (i & 31))) & 1;
/** The length of the shortest prefix after which every bit of `w` is `value`. */
const prefixBefore = (w: Words, value: 0 | 1) => {
  for (let i = 3; i >= 0; i--) {
    const x = value ? ~w[i] : w[i];
    if (x !== 0) return 32 * i + 32 - (31 - Math.clz32(x & -x));
  }
  return 0;
};
/** The index of the first bit where `a` and `b` differ; 128 when they are equal. */
const firstDifference = (a: Words, b: Words) => {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return 32 * i + Math.clz32(a[i] ^ b[i]);
  return 128;
};

const createTree = () => {
  let records = new Uint32Array(1 << 17);
  let count = 1;
  const addNode = () => {
    if (2 * count === records.length) {
      const grown = new Uint32Array(records.length * 2);
      grown.set(records);
      records = grown;
    }
    return count++;
  };
  const overlap = (w: Words) => new Error(`ranges overlap near ${w.map((x) => x.toString(16).padStart(8, '0')).join('')}`);

  /** The node under a record, made when the record is empty. */
  const child = (node: number, side: number, w: Words) => {
    const at = 2 * node + side;
    if (records[at] & DATA) throw overlap(w);
    // addNode may replace `records`: take the new node before storing it.
    const next = records[at] || addNode();
    records[at] = next;
    return next;
  };
  const fill = (node: number, side: number, value: number, w: Words) => {
    const at = 2 * node + side;
    if (records[at] !== 0) throw overlap(w);
    records[at] = value;
  };
  /** The node at the end of the first `length` bits of `w`. */
  const walk = (w: Words, length: number) => {
    let node = 0;
    for (let i = 0; i < length; i++) node = child(node, bitOf(w, i), w);
    return node;
  };
  /**
   * One side of a range below the node where its ends part (at bit `split`): side 0 covers from `w` to the end of
   * the left half, side 1 from the start of the right half to `w`. Along the path of `w`, every sibling that lies
   * inside the range takes the record, down to the bit `last` after which `w` runs to the edge of its subtree.
   */
  const side = (top: number, s: 0 | 1, w: Words, last: number, split: number, value: number) => {
    if (last <= split + 1) return fill(top, s, value, w);
    let node = child(top, s, w);
    for (let i = split + 1; i < last - 1; i++) {
      const b = bitOf(w, i);
      if (b === s) fill(node, 1 - s, value, w);
      node = child(node, b, w);
    }
    fill(node, 1 - s, value, w);
  };

  return {
    count: () => count,
    records: () => records,
    /** Gives every address from `lo` to `hi` the data record; none of them may have one yet. */
    insert: (lo: Words, hi: Words, offset: number) => {
      const value = DATA | offset;
      const split = firstDifference(lo, hi);
      const [loLast, hiLast] = [prefixBefore(lo, 0), prefixBefore(hi, 1)];
      const whole = Math.max(loLast, hiLast);
      if (whole <= split) return fill(walk(lo, whole - 1), bitOf(lo, whole - 1), value, lo);
      const top = walk(lo, split);
      side(top, 0, lo, loLast, split, value);
      side(top, 1, hi, hiLast, split, value);
    },
    /** The node of an address prefix, made on the way. */
    node: (w: Words, length: number) => walk(w, length),
    /** Points a prefix at an existing node, so that both prefixes share what is under it. */
    alias: (w: Words, length: number, node: number) => fill(walk(w, length - 1), bitOf(w, length - 1), node, w),
  };
};

/**
 * The data section, each distinct record once, in one growing buffer (small buffers kept apart would each hold on to
 * a slab of Node's buffer pool). `offset` answers a record's offset within the section.
 */
const createDataSection = () => {
  let bytes = Buffer.alloc(1 << 16);
  let size = 0;
  const known = new Map<string, number>();
  return {
    size: () => size,
    bytes: () => bytes.subarray(0, size),
    offset: (record: MmdbData) => {
      const key = JSON.stringify(record);
      const seen = known.get(key);
      if (seen !== undefined) return seen;
      if (size >= DATA) throw new Error('the data section is too large');
      const encoded = encodeData(record);
      if (size + encoded.length > bytes.length) bytes = Buffer.concat([bytes.subarray(0, size)], 2 * (size + encoded.length));
      encoded.copy(bytes, size);
      const offset = size;
      known.set(key, offset);
      size += encoded.length;
      return offset;
    },
  };
};

/** The search tree as bytes, a chunk of nodes at a time: each node's left then right record, `recordSize` bits each. */
function* treeChunks({ records, count, recordSize, value }: { records: Uint32Array; count: number; recordSize: 24 | 28 | 32; value: (r: number) => number }) {
  const nodeBytes = recordSize / 4;
  const chunkNodes = 1 << 16;
  for (let first = 0; first < count; first += chunkNodes) {
    const out = Buffer.alloc(Math.min(chunkNodes, count - first) * nodeBytes);
    for (let node = first, at = 0; at < out.length; node++, at += nodeBytes) {
      const left = value(records[2 * node]);
      const right = value(records[2 * node + 1]);
      if (recordSize === 32) {
        out.writeUInt32BE(left, at);
        out.writeUInt32BE(right, at + 4);
        continue;
      }
      out.writeUIntBE(left & 0xff_ffff, at, 3);
      out.writeUIntBE(right & 0xff_ffff, at + nodeBytes - 3, 3);
      if (recordSize === 28) out[at + 3] = ((left >>> 24) << 4) | (right >>> 24);
    }
    yield out;
  }
}

const recordSizeFor = (largest: number, least: 24 | 28 | 32) => {
  const size = ([24, 28, 32] as const).find((s) => s >= least && largest < 2 ** s);
  if (!size) throw new Error(`the database is too large for 32-bit records (${largest})`);
  return size;
};

const metadata = (o: MmdbWriteOptions & { nodeCount: number; recordSize: number }) => {
  const description = Object.entries(o.description ?? {});
  return map([
    ['node_count', uint(UINT32, o.nodeCount)],
    ['record_size', uint(UINT16, o.recordSize)],
    ['ip_version', uint(UINT16, 6)],
    ['database_type', utf8(o.databaseType)],
    ['languages', Buffer.concat([control(ARRAY, description.length), ...description.map(([lang]) => utf8(lang))])],
    ['binary_format_major_version', uint(UINT16, 2)],
    ['binary_format_minor_version', uint(UINT16, 0)],
    ['build_epoch', uint(UINT64, Math.floor(Date.now() / 1000))],
    ['description', map(description.map(([lang, text]) => [lang, utf8(text)]))],
  ]);
};

/** Writes the database to `path`; resolves with its node count, record size and size in bytes. */
export const writeMmdb = async (o: MmdbWriteOptions) => {
  const tree = createTree();
  const ipv4Root = tree.node([0, 0, 0, 0], 96);
  const data = createDataSection();
  for await (const { ipVersion, start, end, data: record } of o.ranges) {
    const bits = ipVersion === 4 ? 32 : 128;
    if (start < 0n || end < start || end >= 1n << BigInt(bits)) throw new Error(`not an IPv${ipVersion} range: ${start}..${end}`);
    if (start === 0n && end === (1n << BigInt(bits)) - 1n) throw new Error(`a range cannot cover all of IPv${ipVersion}`);
    tree.insert(wordsOf(start), wordsOf(end), data.offset(record));
  }
  tree.alias([0, 0, 0xffff, 0], 96, ipv4Root);

  // A record is a node's index, the node count for "no data", or the node count + 16 + an offset in the data section.
  const nodeCount = tree.count();
  const recordSize = recordSizeFor(nodeCount + 16 + data.size(), o.recordSize ?? 24);
  const value = (r: number) => (r === 0 ? nodeCount : r & DATA ? nodeCount + 16 + (r & ~DATA) : r);
  const file = await open(o.path, 'w');
  try {
    for (const chunk of treeChunks({ records: tree.records(), count: nodeCount, recordSize, value })) await file.write(chunk);
    await file.writev([Buffer.alloc(16), data.bytes(), Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com'), metadata({ ...o, nodeCount, recordSize })]);
    return { nodeCount, recordSize, bytes: (await file.stat()).size };
  } finally {
    await file.close();
  }
};
