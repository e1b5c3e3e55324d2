import fs from 'node:fs/promises';
import path from 'node:path';

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
 * (its origin) and `<seq>.ndjson` (its lines, moved into place last), both synced to disk before its node is answered,
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
    async put(meta: SpoolMeta, ndjson: Buffer): Promise<Spooled> {
      const seq = next++;
      const file = path.join(dir, `${seq}${LINES}`);
      await writeSynced(path.join(dir, `${seq}${META}`), JSON.stringify(meta));
      await writeSynced(`${file}${PART}`, ndjson);
      await fs.rename(`${file}${PART}`, file);
      await syncDir(dir);
      return { ...meta, seq, path: file };
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
