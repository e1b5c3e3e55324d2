import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { releasesDir } from './releases';

const run = promisify(execFile);
const SELF_CHECK_MS = 120_000;

const readJsonFile = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

/** Unpacks a package beside the running version; answers the release root (holding apps/agent). */
export async function unpackRelease({ file, stateDir, version }: { file: string; stateDir: string; version: string }) {
  const dir = join(releasesDir(stateDir), `${version.replace(/[^A-Za-z0-9._-]/g, '_')}-${Date.now()}`);
  await rm(`${dir}.part`, { recursive: true, force: true });
  await mkdir(`${dir}.part`, { recursive: true });
  try {
    await run('tar', ['-xzf', file, '-C', `${dir}.part`]);
  } catch (err) {
    await rm(`${dir}.part`, { recursive: true, force: true });
    throw new Error(`bad package: it does not unpack (${(err as Error).message.split('\n').slice(-2).join(' ').trim()})`, { cause: err });
  }
  const root = join(`${dir}.part`, 'edgekeep');
  const manifest = await readJsonFile(join(root, 'package.json')).catch(() => undefined);
  const problem = !manifest
    ? 'it has no edgekeep/package.json'
    : manifest.version !== version
      ? `it holds version ${String(manifest.version)}, not ${version}`
      : !existsSync(join(root, 'apps/agent/dist/main.js'))
        ? 'it has no agent'
        : undefined;
  if (problem) {
    await rm(`${dir}.part`, { recursive: true, force: true });
    throw new Error(`bad package: ${problem}`);
  }
  await rename(`${dir}.part`, dir);
  return join(dir, 'edgekeep');
}

const dependenciesOf = async (root: string) =>
  JSON.stringify(await Promise.all(['apps/agent', 'packages/contract'].map(async (p) => (await readJsonFile(join(root, p, 'package.json')).catch((): Record<string, unknown> => ({}))).dependencies ?? {})));

/** node_modules of `from` linked entry by entry, except the workspace packages, which are the release's own. */
async function linkModules({ from, to, workspace }: { from: string; to: string; workspace?: Record<string, string> }) {
  const entries = await readdir(from).catch(() => undefined);
  if (!entries) return;
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    if (entry === '.bin' || (workspace && entry === '@edgekeep')) continue;
    await symlink(await realpath(join(from, entry)), join(to, entry));
  }
  if (!workspace) return;
  await mkdir(join(to, '@edgekeep'), { recursive: true });
  for (const [name, path] of Object.entries(workspace)) await symlink(`../../${path}`, join(to, '@edgekeep', name));
}

/**
 * Gives the release its dependencies: the running installation's when the release asks for the same ones (no
 * download), otherwise `npm install` in the release.
 */
export async function provideDependencies({ root, installRoot }: { root: string; installRoot: string }) {
  const from = await realpath(installRoot);
  if ((await dependenciesOf(root)) !== (await dependenciesOf(from))) {
    await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return 'dependencies installed with npm';
  }
  await linkModules({ from: join(from, 'node_modules'), to: join(root, 'node_modules'), workspace: { contract: 'packages/contract', agent: 'apps/agent' } });
  for (const p of ['apps/agent', 'packages/contract']) await linkModules({ from: join(from, p, 'node_modules'), to: join(root, p, 'node_modules') });
  return 'dependencies shared with the running version';
}

/** Starts the release's agent in self-check mode (it loads every module, prints its version and exits). */
export function selfCheck({ root, version }: { root: string; version: string }) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: join(root, 'apps/agent'),
      env: { ...process.env, EDGEKEEP_SELF_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: SELF_CHECK_MS,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 && out.trim().split('\n').includes(version)) return resolve();
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      reject(new Error(`the new version fails to start (${why}): ${out.trim().slice(-1500)}`));
    });
  });
}
