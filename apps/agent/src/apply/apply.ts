import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { edge } from '@edgekeep/contract';
import { controlStatus, type Control } from '../control/client';
import { defaultGeo } from '../geo/databases';
import { render, siteCacheDirectories, type CityDb, type GeoOptions } from '../render';
import { defaultCertFiles } from './default-cert';
import { currentRelease, ensureLayout, pruneReleases, readControlToken, releaseName, replaceLink, writeRelease } from './layout';
import { childPids, errorLogSince, errorLogSize, isRetired, masterPid, preflight, testConfig } from './nginx';

export type ApplyOptions = {
  state: edge.DesiredState;
  /** The nginx prefix of this node (absolute). */
  prefix: string;
  controlPort: number;
  nginxBin?: string;
  modulesDir?: string;
  /** nginx has the Lua and stream modules built in (OpenResty). */
  builtinModules?: boolean;
  keepReleases?: number;
  /** Defaults to the country database the agent carries, looked up by the client address, where nginx has geoip2. */
  geo?: GeoOptions;
  /** The node's ASN database, used by the default geo lookup once the file exists. */
  asnDb?: string;
  /** The city database, used by the default geo lookup where its files exist. */
  cityDb?: CityDb;
  /** A country database instead of the one the agent carries. */
  countryDb?: string;
  /** How long a reloaded nginx may take to serve the new release (10 s plus 5 ms a domain by default). */
  reloadTimeoutMs?: number;
};

export type ApplyResult =
  | { ok: true; release: string; reloaded: boolean }
  | { ok: false; release: string; stage: 'write' | 'test' | 'reload'; error: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * nginx said the reload failed: an [emerg] line, unless it is a bind() failure nginx is still retrying
 * (it tries five times, then says "still could not bind()").
 */
const reloadFailed = (said: string) =>
  said.includes('[emerg]') && (!/bind\(\) to \S+ failed/.test(said) || said.includes('still could not bind()'));

/** The new release serves once a worker reports it and every worker of the old one stopped accepting. */
type WaitOptions = { prefix: string; control: Control; release: string; oldChildren: number[]; logOffset: number; timeoutMs: number };

const waitForRelease = async (o: WaitOptions) => {
  const deadline = Date.now() + o.timeoutMs;
  while (Date.now() < deadline) {
    const status = await controlStatus({ control: o.control }).catch(() => undefined);
    if (status?.release === o.release) {
      const retired = await Promise.all(o.oldChildren.map((pid) => isRetired({ pid })));
      if (retired.every(Boolean)) return true;
    } else if (reloadFailed(await errorLogSince({ prefix: o.prefix, offset: o.logOffset }))) {
      return false;
    }
    await sleep(50);
  }
  return false;
};

/** nginx parses the whole configuration again on reload: 10 s, and more for many domains (10,000 take seconds). */
const reloadTimeout = ({ state }: { state: edge.DesiredState }) =>
  10_000 + 5 * state.structure.sites.reduce((n, site) => n + site.domains.length, 0);

/**
 * Guarded apply: render into a new release directory, `nginx -t` and preflight it, point `conf` at it, and reload.
 * A configuration nginx refuses never replaces the one serving; the error comes back instead.
 */
export const applyState = async (o: ApplyOptions): Promise<ApplyResult> => {
  const { state, prefix, controlPort, nginxBin = 'nginx', modulesDir = '/usr/lib/nginx/modules' } = o;
  await ensureLayout({ prefix, modulesDir });
  const release = releaseName({ revision: state.revision });
  // nginx makes a cache directory (and hands it to its workers) but not the folders above it.
  for (const cacheDir of siteCacheDirectories({ state })) {
    const failed = await mkdir(cacheDir, { recursive: true, mode: 0o755 }).then(() => undefined, (err: Error) => err.message);
    if (failed) return { ok: false, release, stage: 'test', error: `cannot make the cache directory ${cacheDir}: ${failed}` };
  }
  const dir = join(prefix, 'releases', release);
  const geo = o.geo ?? (await defaultGeo({ modulesDir, builtinModules: o.builtinModules, asnDb: o.asnDb, cityDb: o.cityDb, countryDb: o.countryDb }));
  const files = render({ state, dir, release, controlPort, builtinModules: o.builtinModules, geo });
  const unwritten = await writeRelease({ dir, files: { ...files, ...(await defaultCertFiles({ prefix })) } }).then(() => undefined, (err: Error) => err.message);
  if (unwritten) {
    // a full disk: what was written of the release must not hold the space, and nothing points at it
    await rm(dir, { recursive: true, force: true });
    return { ok: false, release, stage: 'write', error: unwritten };
  }

  const confFile = join(dir, 'nginx.conf');
  // Both parse the whole configuration, which takes seconds with thousands of domains: side by side.
  const [tested, booted] = await Promise.all([testConfig({ prefix, nginxBin, confFile }), preflight({ prefix, nginxBin, confFile })]);
  const refused = tested ?? booted;
  if (refused) {
    await rm(dir, { recursive: true, force: true });
    return { ok: false, release, stage: 'test', error: refused };
  }

  const previous = await currentRelease({ prefix });
  await replaceLink({ link: join(prefix, 'conf'), target: `releases/${release}` });
  const pid = await masterPid({ prefix });
  if (pid === undefined) {
    await pruneReleases({ prefix, keep: o.keepReleases ?? 3, inUse: [release] });
    return { ok: true, release, reloaded: false };
  }

  const oldChildren = await childPids({ pid });
  const logOffset = await errorLogSize({ prefix });
  process.kill(pid, 'SIGHUP');
  const control = { port: controlPort, token: await readControlToken({ prefix }) };
  if (await waitForRelease({ prefix, control, release, oldChildren, logOffset, timeoutMs: o.reloadTimeoutMs ?? reloadTimeout({ state }) })) {
    await pruneReleases({ prefix, keep: o.keepReleases ?? 3, inUse: [release] });
    return { ok: true, release, reloaded: true };
  }
  // nginx keeps its old configuration when a reload fails (a port taken, say): point conf back at it.
  if (previous) await replaceLink({ link: join(prefix, 'conf'), target: `releases/${previous}` });
  const said = await errorLogSince({ prefix, offset: logOffset });
  return { ok: false, release, stage: 'reload', error: said || 'nginx did not take the new configuration in time' };
};
