import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Position } from './offsets';

const inodeOf = (path: string) => stat(path).then((s) => s.ino, () => undefined);

/** A file of the log's directory with that inode: the log renamed by a rotation, or undefined. */
const findByInode = async ({ file, inode }: { file: string; inode: number }) => {
  const dir = dirname(file);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(basename(file)))) {
    if ((await inodeOf(join(dir, name))) === inode) return join(dir, name);
  }
  return undefined;
};

/**
 * Reads one log file in chunks of at most `chunkBytes`, following it through rotations: it stays on the file it
 * opened (by inode) until told to move on to the file now at the log's path.
 */
export const createLogReader = ({ file, chunkBytes }: { file: string; chunkBytes: number }) => {
  const buffer = Buffer.alloc(chunkBytes);
  let handle: FileHandle | undefined;
  let inode: number | undefined;

  const close = async () => {
    await handle?.close().catch(() => undefined);
    handle = undefined;
    inode = undefined;
  };

  return {
    /**
     * Opens the file a saved position is in (the log, or its rotated copy), else the log from its start. Answers
     * the position reading goes on from, or undefined while there is no log yet.
     */
    open: async ({ position }: { position?: Position }): Promise<Position | undefined> => {
      await close();
      const path = position && (await inodeOf(file)) === position.inode ? file : position && (await findByInode({ file, inode: position.inode }));
      if (path) {
        handle = await open(path, 'r');
        inode = position!.inode;
        return position;
      }
      handle = await open(file, 'r').catch(() => undefined);
      if (!handle) return undefined;
      inode = (await handle.stat()).ino;
      return { inode, offset: 0 };
    },
    /** Up to one chunk from `offset` (a copy; empty at the end of the file). */
    read: async ({ offset }: { offset: number }) => {
      if (!handle) return Buffer.alloc(0);
      const { bytesRead } = await handle.read({ buffer, position: offset, length: chunkBytes });
      return Buffer.from(buffer.subarray(0, bytesRead));
    },
    size: async () => (handle ? (await handle.stat()).size : 0),
    /** Whether the log's path now holds another file than the one being read. */
    rotated: async () => {
      const current = await inodeOf(file);
      return current !== undefined && current !== inode;
    },
    close,
  };
};
