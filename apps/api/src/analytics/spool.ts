import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** How a batch is known to have been stored: its log file's cursor (the offset of its last line), else its digest. */
export type BatchId = { cursor: { file: string; offset: number } } | { digest: string };
/** A batch's origin and what it holds, besides its lines. `newest`: its newest line's time (epoch ms). */
export type SpoolMeta = BatchId & { nodeId: number; served: number[]; shiftMs: number; lines: number; newest?: number };
/** A batch on disk, acknowledged to its node and not loaded yet; `seq` orders batches as they arrived. */
export type Spooled = SpoolMeta & { seq: number; path: string };

const LINES = '.ndjson';
const META = '.json';
const PART = '.part';
const FAILED = 'failed';

/** Why a batch was not taken: more lines or unpacked bytes than allowed, or a body that is not gzip. */
export class BatchRefused extends Error {
  constructor(readonly reason: 'lines' | 'bytes' | 'gzip') {
    super(`log batch refused: ${reason}`);
  }
}

/** The most a batch may hold, unpacked: bytes and lines (the empty ones aside). */
export type BatchLimits = { bytes: number; lines: number };

const SPACE = new Set([0x20, 0x09, 0x0d, 0x0a]);
/** Whether bytes [from, to) of the chunk hold more than white space. */
const filled = (chunk: Buffer, from: number, to: number) => {
  for (let i = from; i < to; i++) if (!SPACE.has(chunk[i])) return true;
  return false;
};

/**
 * Counts a batch's lines (the empty ones aside) as its chunks pass, keeping only where its last line is, and refuses
 * it past `limits`: a batch is read once, as it is written, and never held whole.
 */
export function lineScanner(limits: BatchLimits) {
  let lines = 0;
  let bytes = 0;
  /** The chunks' parts of the line not ended yet (it may span chunks), and whether they hold more than white space. */
  let pending: Buffer[] = [];
  let pendingFilled = false;
  /** The last line counted: its parts in earlier chunks, then [start, end) of `chunk`. */
  let last: { before: Buffer[]; chunk: Buffer; start: number; end: number } | undefined;
  const count = () => {
    if (++lines > limits.lines) throw new BatchRefused('lines');
  };
  return {
    push(chunk: Buffer) {
      bytes += chunk.length;
      if (bytes > limits.bytes) throw new BatchRefused('bytes');
      for (let start = 0; ; ) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl < 0 ? chunk.length : nl;
        const here = filled(chunk, start, end);
        if (nl < 0) {
          if (end > start) pending.push(chunk.subarray(start, end));
          pendingFilled ||= here;
          return;
        }
        if (pendingFilled || here) {
          count();
          last = { before: pending, chunk, start, end };
        }
        if (pending.length) pending = [];
        pendingFilled = false;
        start = nl + 1;
      }
    },
    /** The batch's lines and its last line's bytes, once every chunk has passed. */
    end() {
      if (pendingFilled) {
        count();
        last = { before: pending, chunk: Buffer.alloc(0), start: 0, end: 0 };
      }
      pending = [];
      return { lines, last: last && Buffer.concat([...last.before, last.chunk.subarray(last.start, last.end)]) };
    },
  };
}

/** Lines in a batch held whole (the empty ones aside) and its last line's bytes. */
export const scanLines = (ndjson: Buffer) => {
  const scan = lineScanner({ bytes: Infinity, lines: Infinity });
  scan.push(ndjson);
  return scan.end();
};

/** The batch's NDJSON in chunks: unpacked on the way when it came as gzip. */
const chunksOf = (body: Buffer, gzip: boolean): AsyncIterable<Buffer> | Buffer[] =>
  gzip ? Readable.from([body], { objectMode: false }).pipe(createGunzip({ chunkSize: 64 * 1024 })) : [body];

const writeSynced = async (file: string, data: Buffer | string) => {
  const handle = await fs.open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const syncDir = async (dir: string) => {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/**
 * The batches the API has acknowledged and not loaded into the analytics store yet, in `dir`: each as `<seq>.json`
 * (its origin) and `<seq>.ndjson` (its lines, written first and moved into place last), both synced to disk before its node is answered,
 * so a batch is there whole or not at all whatever stops the process. Opening it answers those left by the last process,
 * in arrival order, and removes the pieces of a write cut short (a batch never acknowledged, which its node sends again).
 */
export async function openSpool(dir: string) {
  await fs.mkdir(dir, { recursive: true });
  const names = await fs.readdir(dir);
  const left: Spooled[] = [];
  for (const name of names.filter((n) => n.endsWith(LINES))) {
    const seq = Number(name.slice(0, -LINES.length));
    const meta = JSON.parse(await fs.readFile(path.join(dir, `${seq}${META}`), 'utf8')) as SpoolMeta;
    left.push({ ...meta, seq, path: path.join(dir, name) });
  }
  const whole = new Set(left.map((s) => String(s.seq)));
  for (const name of names) if (/^\d+\./.test(name) && !whole.has(name.split('.')[0])) await fs.rm(path.join(dir, name), { force: true });
  left.sort((a, b) => a.seq - b.seq);
  let next = (left.at(-1)?.seq ?? 0) + 1;
  return {
    left,
    /**
     * Writes a batch (`gzip`: its body is gzip) to disk as it is read, within `limits`, then its origin as `describe`
     * tells it from the lines read and the batch's last line (undefined: the batch holds no line, and is not kept).
     * `digest` hashes the lines written, for a batch known by its digest.
     */
    async put(
      body: Buffer,
      o: { gzip: boolean; limits: BatchLimits },
      describe: (read: { lines: number; last?: Buffer; digest: () => Promise<string> }) => SpoolMeta | undefined | Promise<SpoolMeta | undefined>,
    ): Promise<Spooled | undefined> {
      const seq = next++;
      const file = path.join(dir, `${seq}${LINES}`);
      const part = `${file}${PART}`;
      try {
        const scan = lineScanner(o.limits);
        const handle = await fs.open(part, 'w');
        try {
          for await (const chunk of chunksOf(body, o.gzip)) {
            scan.push(chunk);
            await handle.write(chunk);
          }
          await handle.sync();
        } catch (err) {
          // zlib's errors carry codes Z_DATA_ERROR, Z_BUF_ERROR, …
          throw String((err as { code?: unknown }).code).startsWith('Z_') ? new BatchRefused('gzip') : err;
        } finally {
          await handle.close();
        }
        const meta = await describe({ ...scan.end(), digest: async () => createHash('sha256').update(await fs.readFile(part)).digest('hex') });
        if (!meta) {
          await fs.rm(part, { force: true });
          return undefined;
        }
        await writeSynced(path.join(dir, `${seq}${META}`), JSON.stringify(meta));
        await fs.rename(part, file);
        await syncDir(dir);
        return { ...meta, seq, path: file };
      } catch (err) {
        await fs.rm(part, { force: true });
        throw err;
      }
    },
    /** Moves a batch that fails to load to `failed/`, kept for a look and never loaded again. */
    async setAside(b: Spooled) {
      await fs.mkdir(path.join(dir, FAILED), { recursive: true });
      await fs.rename(path.join(dir, `${b.seq}${META}`), path.join(dir, FAILED, `${b.seq}${META}`));
      await fs.rename(b.path, path.join(dir, FAILED, `${b.seq}${LINES}`));
    },
    /** Removes loaded batches (their lines first: a batch without them is a leftover). */
    async drop(batches: Spooled[]) {
      for (const b of batches) {
        await fs.rm(b.path, { force: true });
        await fs.rm(path.join(dir, `${b.seq}${META}`), { force: true });
      }
    },
  };
}
export type Spool = Awaited<ReturnType<typeof openSpool>>;
