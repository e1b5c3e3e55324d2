import { execFile } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A new directory with a tmpfs of `size` (`4m`) mounted on it; mounting needs root: the reason when refused. */
export const mountTmpfs = async ({ size }: { size: string }) => {
  const dir = await mkdtemp(join(tmpdir(), 'ek-tmpfs-'));
  const refused = await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).then(
    () => undefined,
    (err: Error) => err.message,
  );
  if (refused === undefined) return { dir, ok: true as const };
  await rm(dir, { recursive: true, force: true });
  return { dir, ok: false as const, reason: refused };
};

/** Unmounts (lazily: nginx may still hold a file there) and removes the directory. */
export const unmountTmpfs = async ({ dir }: { dir: string }) => {
  await run('umount', ['-l', dir]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
};

/** Writes into `file` until its filesystem refuses with ENOSPC: big chunks, then smaller ones, down to one byte. */
export const fillDisk = async ({ file }: { file: string }) => {
  const handle = await open(file, 'a');
  try {
    for (const size of [256 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      for (;;) {
        const written = await handle.write(chunk).then(
          (w) => w.bytesWritten,
          (err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOSPC') throw err;
            return 0;
          },
        );
        if (written < size) break;
      }
    }
  } finally {
    await handle.close();
  }
};
