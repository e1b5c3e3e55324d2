import { join } from 'node:path';
import { z } from 'zod';
import { readJson, writeFileAtomic } from '../sync/files';

/**
 * How far a log file was shipped: the file (by inode, which survives a rename) and the byte after the last line
 * taken. `file` is the identity its lines are shipped under (agent-protocol LOG_FILE_HEADER): given when reading
 * starts at the file's first byte, so a new file that got a freed inode, or a truncated one, is another file.
 */
export type Position = { inode: number; offset: number; file?: string };

const position = z.object({ inode: z.number().int().min(0), offset: z.number().int().min(0), file: z.string().optional() });
const offsets = z.record(z.string(), position);

const file = ({ stateDir }: { stateDir: string }) => join(stateDir, 'log-offsets.json');

/** `STATE_DIR/log-offsets.json` holds one position per log, by the log's name. */
export const readPosition = async ({ stateDir, log }: { stateDir: string; log: string }) => {
  const parsed = offsets.safeParse(await readJson({ file: file({ stateDir }) }));
  return parsed.success ? parsed.data[log] : undefined;
};

/** The writes in progress: the shippers of several logs share the file, so each read-modify-write waits for the last. */
let writing: Promise<unknown> = Promise.resolve();

export const writePosition = ({ stateDir, log, value }: { stateDir: string; log: string; value: Position }) => {
  const next = writing.then(() => mergePosition({ stateDir, log, value }));
  writing = next.catch(() => undefined);
  return next;
};

const mergePosition = async ({ stateDir, log, value }: { stateDir: string; log: string; value: Position }) => {
  const parsed = offsets.safeParse(await readJson({ file: file({ stateDir }) }));
  const all = { ...(parsed.success ? parsed.data : {}), [log]: value };
  await writeFileAtomic({ file: file({ stateDir }), content: JSON.stringify(all) + '\n' });
};
