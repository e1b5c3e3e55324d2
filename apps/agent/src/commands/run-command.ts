import { agentProtocol } from '@edgekeep/contract';
import { reopenNginxLogs } from '../apply/process';
import { purgeCache } from '../control/client';
import { siteCacheDirectories } from '../render';
import type { ApiClient } from '../sync/api-client';
import type { Applier } from '../sync/applier';
import type { Log } from '../sync/log';
import { runUpgrade } from '../upgrade/upgrade';
import { emptyCache, rotateLogs } from './node-files';
import { warmUrls } from './warm-cache';

export type CommandContext = {
  api: Pick<ApiClient, 'download' | 'upgradeLog'>;
  applier: Applier;
  prefix: string;
  stateDir: string;
  /** The running agent's version, and how it asks to be restarted (after an upgrade's switch). */
  version?: string;
  requestRestart?: () => void;
  log?: Log;
};
type Handler = (o: CommandContext & { args: Record<string, unknown> }) => Promise<string>;

const handlers: Record<agentProtocol.Command['kind'], Handler> = {
  reload: async ({ applier }) => {
    const status = await applier.reload();
    return `reloaded; nginx serves ${status.release}`;
  },
  restart: async ({ applier }) => {
    await applier.restart();
    return 'nginx restarted';
  },
  reset: async ({ applier }) => {
    await applier.reset();
    return `revision ${applier.status().appliedRevision} applied afresh and nginx restarted`;
  },
  clearCache: async ({ applier, args }) => {
    const { hosts, extensions } = agentProtocol.clearCacheArgs.parse(args);
    const control = await applier.control();
    const { removed } = hosts ? await purgeCache({ control, hosts, extensions }) : await purgeCache({ control, all: true });
    return hosts ? `${removed} cached files removed for ${hosts.length} hosts` : `${removed} cached files removed`;
  },
  clearUrlCache: async ({ applier, args }) => {
    const { urls, prefixes } = agentProtocol.clearUrlCacheArgs.parse(args);
    const { removed } = await purgeCache({ control: await applier.control(), urls, prefixes });
    return `${removed} cached files removed for ${urls.length + prefixes.length} URLs`;
  },
  warmCache: async ({ applier, args }) => {
    const { urls } = agentProtocol.warmCacheArgs.parse(args);
    const zone = applier.current()?.structure.zone;
    if (!zone) throw new Error('no state has been applied yet');
    const results = await warmUrls({ urls, httpPort: zone.httpPorts[0], httpsPort: zone.httpsPorts[0] });
    const failed = results.filter((r) => !r.ok);
    const summary = `${results.length - failed.length} of ${results.length} URLs fetched through the edge`;
    if (failed.length) throw new Error(`${summary}; failed: ${failed.map((r) => `${r.url} (${r.detail})`).join(', ')}`);
    return summary;
  },
  formatCache: ({ applier, prefix }) =>
    applier.exclusive(async () => {
      const state = applier.current();
      const dirs = state ? siteCacheDirectories({ state }) : [];
      return `${await emptyCache({ prefix, dirs })} entries removed from ${dirs.length + 1} cache directories`;
    }),
  logRotate: ({ applier, prefix }) =>
    applier.exclusive(async () => {
      const rotated = await rotateLogs({ prefix });
      await reopenNginxLogs({ prefix });
      return rotated.length ? `rotated ${rotated.join(', ')}` : 'no log to rotate';
    }),
  upgrade: ({ api, stateDir, args, version = 'unknown', requestRestart, log }) =>
    runUpgrade({ api, stateDir, args: agentProtocol.upgradeArgs.parse(args), version, requestRestart, log }),
};

/** Runs one queued node action; a failure is an answer (`ok: false`), never an exception. */
export const runCommand = async ({ command, ...context }: CommandContext & { command: agentProtocol.Command }) => {
  try {
    return { ok: true, message: await handlers[command.kind]({ ...context, args: command.args }) };
  } catch (err) {
    return { ok: false, message: (err as Error).message.slice(0, 16_384) };
  }
};
