import { readlink, rename, rm, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { AGENT_ROOT } from '../agent-root';
import { readJson, writeFileAtomic } from '../sync/files';

/**
 * Versions the agent upgraded to live in `STATE_DIR/releases/<version>-<stamp>/edgekeep`; `releases/current` points
 * at the one bin/edgekeep-agent starts (none: the installed one) and `releases/previous` at the one before.
 * `pending.json` marks a switch whose new version has not yet said it started; the launcher rolls a version that
 * exits before then back and renames the mark `failed.json` (its exit code in `failed.code`).
 */
export const releasesDir = (stateDir: string) => join(stateDir, 'releases');
/** The installation this agent runs from (the directory holding apps/agent and packages/contract). */
export const INSTALL_ROOT = resolve(AGENT_ROOT, '../..');

export const pendingMark = z.object({ upgradeId: z.number().int().positive().optional(), from: z.string(), to: z.string() });
export type PendingMark = z.infer<typeof pendingMark>;

const link = async (target: string, at: string) => {
  await rm(`${at}.new`, { force: true });
  await symlink(target, `${at}.new`);
  await rename(`${at}.new`, at);
};

/** Points `current` at a release (and `previous` at what it pointed to), marking the switch pending. */
export async function switchTo({ stateDir, root, mark }: { stateDir: string; root: string; mark: PendingMark }) {
  const dir = releasesDir(stateDir);
  const before = await readlink(join(dir, 'current')).catch(() => undefined);
  if (before) await link(before, join(dir, 'previous'));
  else await rm(join(dir, 'previous'), { force: true });
  await writeFileAtomic({ file: join(dir, 'pending.json'), content: JSON.stringify(mark) + '\n' });
  await link(root, join(dir, 'current'));
}

/** What the last switch came to, read once at start: `done` (this version is the one switched to) or `failed`. */
export async function takeOutcome({ stateDir, version }: { stateDir: string; version: string }) {
  const dir = releasesDir(stateDir);
  const pending = pendingMark.safeParse(await readJson({ file: join(dir, 'pending.json') }));
  if (pending.success) {
    await rm(join(dir, 'pending.json'), { force: true });
    if (pending.data.to === version) return { kind: 'done' as const, mark: pending.data };
  }
  const failed = pendingMark.safeParse(await readJson({ file: join(dir, 'failed.json') }));
  if (!failed.success) return undefined;
  const code = await readJson({ file: join(dir, 'failed.code') });
  await rm(join(dir, 'failed.json'), { force: true });
  await rm(join(dir, 'failed.code'), { force: true });
  return { kind: 'failed' as const, mark: failed.data, code: typeof code === 'number' ? code : null };
}
