import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { edge } from '@edgekeep/contract';
import { applyState } from '../apply/apply';
import { nginxArgs } from '../apply/nginx';
import { readControlToken } from '../apply/layout';
import { controlStatus, type Control } from '../control/client';
import type { GeoOptions } from '../render';
import { runLua } from './lua-runner';
import { requiredInCi } from './required-in-ci';

/** Whether this machine has nginx with the Lua and stream modules (and cjson); the reason when not. */
export const detectNginx = async (): Promise<{ ok: true } | { ok: false; reason: string }> =>
  runLua<boolean>({ code: 'require "cjson.safe"; return true' }).then(
    () => ({ ok: true }),
    (err: Error) => ({ ok: false, reason: err.message }),
  );

/** detectNginx for a test file that needs it: `need` says what for; a failure in CI, a skip elsewhere (requiredInCi). */
export const nginxForTests = async (need: string) => {
  const nginx = await detectNginx();
  requiredInCi(nginx.ok, nginx.ok ? need : `${need}: ${nginx.reason}`);
  return nginx;
};

const waitForControl = async ({ control, child }: { control: Control; child: ChildProcess }) => {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    if (await controlStatus({ control }).catch(() => undefined)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nginx did not answer on its control port');
};

/** An edge node in a temporary prefix: the state applied, then nginx started in the foreground. */
export const startEdge = async ({ state, controlPort, geo }: { state: edge.DesiredState; controlPort: number; geo?: GeoOptions }) => {
  const prefix = await mkdtemp(join(tmpdir(), 'ek-edge-'));
  const first = await applyState({ state, prefix, controlPort, geo });
  if (!first.ok) throw new Error(`first apply failed: ${first.error}`);
  const child = spawn('nginx', [...nginxArgs({ prefix }), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const control = { port: controlPort, token: await readControlToken({ prefix }) };
  await waitForControl({ control, child }).catch((e) => {
    child.kill('SIGKILL');
    throw new Error(`${e.message}\n${stderr}`);
  });
  /** Stops nginx and keeps the prefix. */
  const halt = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  const stop = async () => {
    await halt();
    await rm(prefix, { recursive: true, force: true });
  };
  return { prefix, control, masterPid: child.pid as number, halt, stop };
};
