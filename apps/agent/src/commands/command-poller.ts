import type { ApiClient } from '../sync/api-client';
import { sleep } from '../sync/backoff';
import type { Log } from '../sync/log';
import { runCommand, type CommandContext } from './run-command';

export type CommandPollerOptions = CommandContext & { api: ApiClient; log: Log; intervalMs?: number; afterResult?: () => void };

/**
 * Asks for queued commands every `intervalMs` and whenever `poke()` is called (after each watch answer), runs them
 * oldest first and posts each result. A result that could not be posted is posted again, the command not rerun.
 */
export const createCommandPoller = ({ api, log, intervalMs = 5000, afterResult, ...context }: CommandPollerOptions) => {
  const unposted = new Map<number, { ok: boolean; message: string }>();
  let wake = new AbortController();

  const poll = async () => {
    const commands = await api.commands();
    for (const id of unposted.keys()) if (!commands.some((c) => c.id === id)) unposted.delete(id);
    for (const command of commands) {
      const result = unposted.get(command.id) ?? (await runCommand({ ...context, api, log, command }));
      log({ msg: 'command', id: command.id, kind: command.kind, ok: result.ok, result: result.message });
      unposted.set(command.id, result);
      await api.commandResult({ id: command.id, ...result });
      unposted.delete(command.id);
      afterResult?.();
    }
  };

  return {
    poke: () => wake.abort(),
    run: async ({ signal }: { signal: AbortSignal }) => {
      while (!signal.aborted) {
        await poll().catch((err: Error) => log({ msg: 'commands not polled', error: err.message }));
        await sleep({ ms: intervalMs, signal: AbortSignal.any([signal, wake.signal]) });
        wake = new AbortController();
      }
    },
  };
};
