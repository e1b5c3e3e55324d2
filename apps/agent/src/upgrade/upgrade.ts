import { rm } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { agentProtocol } from '@edgekeep/contract';
import { savePackage } from '../commands/node-files';
import type { ApiClient } from '../sync/api-client';
import type { Log } from '../sync/log';
import { provideDependencies, selfCheck, unpackRelease } from './install-release';
import { INSTALL_ROOT, switchTo } from './releases';

export type UpgradeOptions = {
  api: Pick<ApiClient, 'download' | 'upgradeLog'>;
  stateDir: string;
  args: agentProtocol.Command['args'] & { version: string; url: string; sha256?: string; upgradeId?: number };
  /** The running version. */
  version: string;
  installRoot?: string;
  /** Asked once the switch is made: the agent stops and exits for its launcher to start the new version. */
  requestRestart?: () => void;
  log?: Log;
};

/** Each step goes into the node's upgrade log; a step that cannot be posted only goes to the agent's own log. */
const stepper = ({ api, upgradeId, log }: { api: UpgradeOptions['api']; upgradeId?: number; log?: Log }) =>
  async (message: string, o: { progress?: number; state?: 'updating' | 'failed' | 'complete' } = {}) => {
    log?.({ msg: 'upgrade', step: message, ...o });
    if (!upgradeId) return;
    await api.upgradeLog({ upgradeId, message, ...o }).catch((err: Error) => log?.({ msg: 'upgrade step not posted', error: err.message }));
  };

/**
 * Upgrades the agent: fetches the package, checks its SHA-256, unpacks it beside the running version, gives it its
 * dependencies, checks that it starts, then switches over and asks for a restart. Any failure before the switch
 * leaves the running version as it is (nginx never stops) and says why in the upgrade log.
 */
export async function runUpgrade({ api, stateDir, args, version, installRoot = INSTALL_ROOT, requestRestart, log }: UpgradeOptions) {
  const step = stepper({ api, upgradeId: args.upgradeId, log });
  try {
    await step(`fetching the package of version ${args.version}`, { progress: 10 });
    const expected = args.sha256 ?? (await text(await api.download({ url: `${args.url}.sha256` }))).trim();
    const saved = await savePackage({ stateDir, version: args.version, body: await api.download({ url: args.url }) });
    if (saved.sha256 !== expected) {
      await rm(saved.file, { force: true });
      throw new Error(`checksum mismatch: the package's SHA-256 is ${saved.sha256}, expected ${expected}`);
    }
    await step(`package verified: ${saved.bytes} bytes, SHA-256 ${saved.sha256}`, { progress: 30 });
    const root = await unpackRelease({ file: saved.file, stateDir, version: args.version });
    await step(`unpacked beside the running version into ${root}`, { progress: 45 });
    await step(await provideDependencies({ root, installRoot }), { progress: 55 });
    await selfCheck({ root, version: args.version });
    await step(`version ${args.version} starts (self-check passed)`, { progress: 75 });
    await switchTo({ stateDir, root, mark: { upgradeId: args.upgradeId, from: version, to: args.version } });
    await step(`switched over from ${version} to ${args.version}; restarting the agent (nginx keeps serving)`, { progress: 90 });
    requestRestart?.();
    return `switched over to ${args.version}; the agent restarts`;
  } catch (err) {
    await step(`upgrade failed: ${(err as Error).message}; the node stays on ${version}`, { state: 'failed' });
    throw err;
  }
}
