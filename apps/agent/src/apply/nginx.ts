import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type NginxPaths = { prefix: string; nginxBin: string };

/** The arguments nginx runs with: the prefix, and the configuration behind the `conf` symlink. */
export const nginxArgs = ({ prefix }: { prefix: string }) => ['-p', `${prefix}/`, '-c', 'conf/nginx.conf'];

/** `nginx -t` of one configuration file; resolves to nginx's complaint, or undefined when it is fine. */
export const testConfig = ({ prefix, nginxBin, confFile }: NginxPaths & { confFile: string }) =>
  new Promise<string | undefined>((resolve) => {
    execFile(nginxBin, ['-t', '-q', '-p', `${prefix}/`, '-c', confFile], { timeout: 60_000 }, (err, _stdout, stderr) => {
      resolve(err ? stderr.trim() || err.message : undefined);
    });
  });

/**
 * Boots a configuration in a throwaway nginx that stops once the Lua runtime has loaded (EK_PREFLIGHT), before it
 * binds a port: `nginx -t` does not run init_by_lua, so this is what catches a Lua or data file that fails.
 */
export const preflight = ({ prefix, nginxBin, confFile }: NginxPaths & { confFile: string }) =>
  new Promise<string | undefined>((resolve) => {
    execFile(
      nginxBin,
      ['-p', `${prefix}/`, '-c', confFile, '-g', 'daemon off; error_log stderr;'],
      { timeout: 60_000, env: { ...process.env, EK_PREFLIGHT: '1' } },
      (err, _stdout, stderr) => resolve(err ? stderr.trim() || err.message : undefined),
    );
  });

/** The master's pid when nginx runs from this prefix. */
export const masterPid = async ({ prefix }: { prefix: string }) => {
  const text = await readFile(join(prefix, 'logs/nginx.pid'), 'utf8').catch(() => '');
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
};

/** The master's child processes (workers, cache manager), from Linux's /proc. */
export const childPids = async ({ pid }: { pid: number }) => {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
};

/** A child is done serving new connections once it has exited or titled itself "shutting down". */
export const isRetired = async ({ pid }: { pid: number }) => {
  const title = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return title === undefined || title.includes('shutting down');
};

/** The error log from a byte offset on: what nginx said about one reload. */
export const errorLogSince = async ({ prefix, offset }: { prefix: string; offset: number }) => {
  const buf = await readFile(join(prefix, 'logs/error.log')).catch(() => Buffer.alloc(0));
  return buf
    .subarray(offset)
    .toString('utf8')
    .split('\n')
    .filter((l) => /\[(emerg|alert|crit|error)\]/.test(l))
    .join('\n');
};

export const errorLogSize = ({ prefix }: { prefix: string }) =>
  stat(join(prefix, 'logs/error.log')).then((s) => s.size, () => 0);
