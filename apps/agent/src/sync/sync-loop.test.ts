import { describe, expect, it } from 'vitest';
import { runSyncLoop, type SyncLoopOptions } from './sync-loop';

describe('the sync loop', () => {
  it('asks for queued actions after a watch answer, unless the answer says none wait', async () => {
    const stop = new AbortController();
    const answers = [{ revision: 1, commands: false }, { revision: 1, commands: true }, { revision: 1 }, { revision: 1, commands: false }];
    let asked = 0;
    const api = {
      // not a valid state: refused, and the loop goes on watching from its revision
      state: async () => ({ revision: 1 }),
      watch: async () => {
        const next = answers.shift();
        if (next) return next;
        stop.abort();
        throw new Error('stopped');
      },
    };
    const applier = { current: () => undefined, refuse: () => undefined, status: () => ({ appliedRevision: null, applyError: null }), failedForSpace: () => false };
    const options = { api, applier, signal: stop.signal, log: () => undefined, onApplied: () => undefined, onWake: () => asked++ };
    await runSyncLoop(options as unknown as SyncLoopOptions);
    expect(asked).toBe(2);
  });
});
