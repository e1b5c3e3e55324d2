import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes a file in one rename, so a crash leaves the old content or the new one, never half of it. */
export const writeFileAtomic = async ({ file, content, mode = 0o600 }: { file: string; content: string; mode?: number }) => {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, content, { mode });
    await rename(tmp, file);
  } catch (err) {
    // a disk that is full leaves a part written: it must not hold the space the next try needs
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
};

/** The parsed JSON of a file, or undefined when it is missing or unreadable. */
export const readJson = async ({ file }: { file: string }): Promise<unknown> => {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
