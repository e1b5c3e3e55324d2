import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The cache keys of the files under a cache directory (levels=1:2), sorted. */
export const cachedKeys = async (dir: string) => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && /^[0-9a-f]{32}$/.test(e.name));
  const heads = await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name), 'latin1')));
  return heads.map((h) => /\nKEY: (\S+)\n/.exec(h)?.[1]).sort();
};
