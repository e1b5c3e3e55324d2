import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Characters written at a time of a content given in pieces. */
const CHUNK_CHARS = 1 << 20;

/**
 * Writes a file in one rename, so a crash leaves the old content or the new one, never half of it. A content given
 * in pieces (a state of 100,000 domains, keptJsonPieces) is joined and written a chunk at a time, so that making and
 * writing it never holds the agent's thread for long.
 */
export const writeFileAtomic = async ({ file, content, mode = 0o600 }: { file: string; content: string | Iterable<string>; mode?: number }) => {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      if (typeof content === 'string') await handle.writeFile(content);
      else {
        let chunk: string[] = [];
        let size = 0;
        for (const piece of content) {
          chunk.push(piece);
          size += piece.length;
          if (size < CHUNK_CHARS) continue;
          await handle.writeFile(chunk.join(''));
          chunk = [];
          size = 0;
        }
        await handle.writeFile(chunk.join(''));
      }
    } finally {
      await handle.close();
    }
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
