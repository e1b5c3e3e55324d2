import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
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

/** The last lines of nginx's error log, for reports. */
export const errorLogTail = async ({ prefix, lines = 5 }: { prefix: string; lines?: number }) => {
  const text = await readFile(join(prefix, 'logs/error.log'), 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
};
