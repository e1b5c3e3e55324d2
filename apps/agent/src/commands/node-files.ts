import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

const ROTATED_KEPT = 5;
const stamp = () => new Date().toISOString().replace(/[-:.]/g, '');

/** Renames the node's logs to `<name>.<UTC stamp>` and drops rotated copies beyond the newest few. */
export const rotateLogs = async ({ prefix, names = ['access.json', 'error.log', 'stream.json'] }: { prefix: string; names?: string[] }) => {
  const dir = join(prefix, 'logs');
  const at = stamp();
  const rotated: string[] = [];
  for (const name of names) {
    const done = await rename(join(dir, name), join(dir, `${name}.${at}`)).then(() => true, () => false);
    if (done) rotated.push(`${name}.${at}`);
    const copies = (await readdir(dir)).filter((n) => n.startsWith(`${name}.`)).sort();
    for (const old of copies.slice(0, Math.max(0, copies.length - ROTATED_KEPT))) await rm(join(dir, old), { force: true });
  }
  return rotated;
};

/** Empties the shared proxy cache directory and the sites' own ones (`dirs`); nginx recreates the levels it needs. */
export const emptyCache = async ({ prefix, dirs = [] }: { prefix: string; dirs?: string[] }) => {
  let removed = 0;
  for (const dir of [join(prefix, 'cache'), ...dirs]) {
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const entry of entries) await rm(join(dir, entry), { recursive: true, force: true });
    removed += entries.length;
  }
  return removed;
};

/** Writes a downloaded package into `STATE_DIR/upgrades/`; answers where, its size and its SHA-256. */
export const savePackage = async ({ stateDir, version, body }: { stateDir: string; version: string; body: ReadableStream<Uint8Array> }) => {
  const dir = join(stateDir, 'upgrades');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `edgekeep-agent-${version.replace(/[^A-Za-z0-9._-]/g, '_')}.pkg`);
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(body), count, createWriteStream(`${file}.part`, { mode: 0o600 }));
  await rename(`${file}.part`, file);
  return { file, bytes, sha256: hash.digest('hex') };
};
