import { execFile } from 'node:child_process';
import { controlStatus, type Control } from '../control/client';
import { masterPid, nginxArgs } from './nginx';

type ProcessOptions = { prefix: string; nginxBin?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the running nginx answers on its control port, optionally after more (re)loads than `afterLoads`. */
export const waitForControl = async ({ control, afterLoads, timeoutMs = 15_000 }: { control: Control; afterLoads?: number; timeoutMs?: number }) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await controlStatus({ control }).catch(() => undefined);
    if (status && (afterLoads === undefined || (status.loads ?? 0) > afterLoads)) return status;
    await sleep(50);
  }
  throw new Error('nginx did not answer on its control port in time');
};

/**
 * Starts nginx on the current release as a daemon of its own: it keeps serving when the agent stops or restarts
 * (the systemd unit uses KillMode=process for that reason).
 */
export const startNginx = ({ prefix, nginxBin = 'nginx' }: ProcessOptions) =>
  new Promise<void>((resolve, reject) => {
    execFile(nginxBin, nginxArgs({ prefix }), { timeout: 60_000 }, (err, _stdout, stderr) =>
      err ? reject(new Error(stderr.trim() || err.message)) : resolve(),
    );
  });

/** Stops nginx (fast shutdown) and waits until the master removed its pid file. */
export const stopNginx = async ({ prefix, timeoutMs = 15_000 }: ProcessOptions & { timeoutMs?: number }) => {
  const pid = await masterPid({ prefix });
  if (pid === undefined) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while ((await masterPid({ prefix })) !== undefined) {
    if (Date.now() > deadline) throw new Error(`nginx (pid ${pid}) did not stop in time`);
    await sleep(50);
  }
};

/** Reloads the running configuration (SIGHUP) and waits until a new worker generation serves. */
export const reloadNginx = async ({ prefix, control }: ProcessOptions & { control: Control }) => {
  const pid = await masterPid({ prefix });
  if (pid === undefined) throw new Error('nginx is not running');
  const before = await controlStatus({ control });
  process.kill(pid, 'SIGHUP');
  return waitForControl({ control, afterLoads: before.loads ?? 0 });
};

/** Makes nginx reopen its log files (after they were renamed). */
export const reopenNginxLogs = async ({ prefix }: ProcessOptions) => {
  const pid = await masterPid({ prefix });
  if (pid === undefined) throw new Error('nginx is not running');
  process.kill(pid, 'SIGUSR1');
};
