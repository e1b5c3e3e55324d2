import { statfs } from 'node:fs/promises';
import { agentProtocol } from '@edgekeep/contract';
import type { Log } from '../sync/log';

/** A write refused for lack of space (or of quota), by its error code or, from nginx's output, by its message. */
export const isNoSpace = (err: unknown) => {
  const e = err as { code?: string; message?: string } | undefined;
  return e?.code === 'ENOSPC' || e?.code === 'EDQUOT' || NO_SPACE.test(e?.message ?? String(err ?? ''));
};
const NO_SPACE = /ENOSPC|EDQUOT|No space left on device|Disk quota exceeded/i;

type Space = { path: string; freeBytes: number; totalBytes: number; noInodes: boolean };

const spaceOf = async (path: string): Promise<Space | undefined> => {
  const s = await statfs(path).catch(() => undefined);
  if (!s) return undefined;
  // bavail: what an unprivileged process (nginx's workers, which write the access log) may still take
  return { path, freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize, noInodes: s.files > 0 && s.ffree === 0 };
};

/**
 * Whether the node's own files can be written: the filesystems holding `paths` (STATE_DIR, nginx's logs), and the
 * agent's own writes, which tell `failed` and `wrote` how they went. A write that failed for lack of space keeps the
 * condition until one of the agent's writes works again.
 */
export const createDiskWatch = ({ paths, log }: { paths: string[]; log: Log }) => {
  let failure: string | undefined;

  return {
    /** Remembers a write that failed for lack of space (other failures are not the disk's); answers whether it was. */
    failed: (err: unknown) => {
      if (!isNoSpace(err)) return false;
      const message = (err as Error)?.message ?? String(err);
      if (failure === undefined) log({ msg: 'the disk is full: a write failed', error: message });
      failure = message.slice(0, 1024);
      return true;
    },
    wrote: () => {
      if (failure !== undefined) log({ msg: 'the disk takes writes again' });
      failure = undefined;
    },
    /** Whether every filesystem of `paths` has room again (by their free space alone). */
    room: async () => {
      const spaces = await Promise.all(paths.map(spaceOf));
      return spaces.every((s) => !s || (s.freeBytes >= agentProtocol.DISK_FULL_FREE_BYTES && !s.noInodes));
    },
    /** The report's `diskFull`: the fullest filesystem of `paths` when it is full or a write failed, else null. */
    condition: async (): Promise<agentProtocol.DiskFull | null> => {
      const spaces = (await Promise.all(paths.map(spaceOf))).filter((s) => s !== undefined);
      const fullest = spaces.sort((a, b) => a.freeBytes - b.freeBytes)[0];
      const full = fullest && (fullest.freeBytes < agentProtocol.DISK_FULL_FREE_BYTES || fullest.noInodes);
      if (!full && failure === undefined) return null;
      return { path: fullest?.path ?? paths[0], freeBytes: fullest?.freeBytes ?? 0, totalBytes: fullest?.totalBytes ?? 0, writeError: failure ?? null };
    },
  };
};

export type DiskWatch = ReturnType<typeof createDiskWatch>;
