import { randomBytes } from 'node:crypto';
import { chmod, cp, mkdir, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LUA_RUNTIME_DIR } from '../lua/runtime';
import { SNI_FILE, type RenderedFiles } from '../render';

/**
 * The prefix of an edge node:
 *   modules → the system's nginx modules · conf → releases/<current> · releases/<name>/ · logs/ · cache/ · temp/
 *   control.token (the control endpoint's bearer token, readable by root only; nginx reads it as the master)
 */
export const ensureLayout = async ({ prefix, modulesDir }: { prefix: string; modulesDir: string }) => {
  for (const dir of ['releases', 'logs', 'cache', 'temp']) await mkdir(join(prefix, dir), { recursive: true });
  // nginx workers run unprivileged and must reach the cache and the release files.
  await chmod(prefix, 0o755);
  await replaceLink({ link: join(prefix, 'modules'), target: modulesDir });
  await writeFile(join(prefix, CONTROL_TOKEN_FILE), randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    },
  );
};

export const CONTROL_TOKEN_FILE = 'control.token';

export const readControlToken = ({ prefix }: { prefix: string }) =>
  readFile(join(prefix, CONTROL_TOKEN_FILE), 'utf8').then((t) => t.trim());

/** Points `link` at `target` in one rename, so nginx never sees it missing. */
export const replaceLink = async ({ link, target }: { link: string; target: string }) => {
  const current = await readlink(link).catch(() => undefined);
  if (current === target) return;
  const tmp = `${link}.next`;
  await rm(tmp, { force: true });
  await symlink(target, tmp);
  await rename(tmp, link);
};

export const currentRelease = ({ prefix }: { prefix: string }) =>
  readlink(join(prefix, 'conf')).then((t) => t.split('/').pop(), () => undefined);

/** Writes a release: the rendered files plus the Lua runtime; private keys readable by root only. */
export const writeRelease = async ({ dir, files }: { dir: string; files: RenderedFiles }) => {
  await mkdir(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content, { mode: path.endsWith('.key') || path === SNI_FILE ? 0o600 : 0o644 });
  }
  await mkdir(join(dir, 'sites'), { recursive: true });
  await mkdir(join(dir, 'stream'), { recursive: true });
  await cp(LUA_RUNTIME_DIR, join(dir, 'lua/edgekeep'), { recursive: true });
};

/** Removes old releases, keeping the newest `keep` and the ones named in `inUse`. */
export const pruneReleases = async ({ prefix, keep, inUse }: { prefix: string; keep: number; inUse: string[] }) => {
  const names = (await readdir(join(prefix, 'releases'))).sort(byAge);
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    if (!inUse.includes(name)) await rm(join(prefix, 'releases', name), { recursive: true, force: true });
  }
};

/** Release names are `r<revision>-<sequence>`; older first. */
export const releaseName = ({ revision }: { revision: number }) =>
  `r${revision}-${Date.now().toString(36).padStart(9, '0')}${randomBytes(2).toString('hex')}`;
const byAge = (a: string, b: string) => (a.split('-')[1] ?? '').localeCompare(b.split('-')[1] ?? '') || a.localeCompare(b);
