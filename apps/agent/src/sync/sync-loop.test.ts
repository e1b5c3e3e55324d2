import { edge, stateDelta } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { fullState } from '../test/fixtures';
import { runSyncLoop, type SyncLoopOptions } from './sync-loop';

type Watch = { revision: number; commands?: boolean; delta?: unknown };

/** A loop over scripted watch answers, stopped when they run out; the applier holds `held` and records what it applies. */
const scripted = async ({ answers, state, held }: { answers: Watch[]; state: () => unknown; held?: edge.DesiredState }) => {
  const stop = new AbortController();
  const calls = { state: 0, wakes: 0, bases: [] as (string | undefined)[], applied: [] as edge.DesiredState[] };
  let current = held;
  const api = {
    state: async () => {
      calls.state++;
      return state();
    },
    watch: async ({ base }: { base?: string }) => {
      calls.bases.push(base);
      const next = answers.shift();
      if (next) return next;
      stop.abort();
      throw new Error('stopped');
    },
  };
  const applier = {
    current: () => current,
    refuse: () => undefined,
    status: () => ({ appliedRevision: current?.revision ?? null, applyError: null }),
    failedForSpace: () => false,
    apply: async (next: edge.DesiredState) => {
      calls.applied.push(next);
      current = next;
      return { ok: true, reloaded: false };
    },
  };
  const options = { api, applier, signal: stop.signal, log: () => undefined, onApplied: () => undefined, onWake: () => calls.wakes++ };
  await runSyncLoop(options as unknown as SyncLoopOptions);
  return calls;
};

describe('the sync loop', () => {
  it('asks for queued actions after a watch answer, unless the answer says none wait', async () => {
    const answers = [{ revision: 1, commands: false }, { revision: 1, commands: true }, { revision: 1 }, { revision: 1, commands: false }];
    // not a valid state: refused, and the loop goes on watching from its revision
    const calls = await scripted({ answers, state: () => ({ revision: 1 }) });
    expect(calls.wakes).toBe(2);
  });

  it("applies the delta a watch carries without asking for the state, and names the build it holds in every watch", async () => {
    const first = { ...fullState(), revision: 42, etag: 'r42.a' };
    const second = structuredClone({ ...first, revision: 43, etag: 'r43.b' });
    second.data.sites[0].blacklist = ['203.0.113.5'];
    const delta = JSON.parse(JSON.stringify(stateDelta.diffStates({ from: first, to: second, base: first.etag, etag: second.etag }))) as unknown;
    // the first state comes whole (the node holds none); then the watch tells of 43 with the delta from 42
    const calls = await scripted({ answers: [{ revision: 43, commands: false, delta }], state: () => JSON.parse(JSON.stringify(first)) as unknown });
    expect(calls.state).toBe(1);
    expect(calls.applied.map((s) => s.revision)).toEqual([42, 43]);
    expect(calls.applied[1]).toEqual(edge.desiredState.parse(JSON.parse(JSON.stringify(second))));
    expect(calls.bases).toEqual(['r42.a', 'r43.b']);
  });

  it('asks for the state when the delta a watch carries is not from the build it holds', async () => {
    const held = { ...fullState(), revision: 42, etag: 'r42.a' };
    const states = [{ ...held, revision: 43, etag: 'r43.b' }, { ...held, revision: 44, etag: 'r44.c' }];
    const stale = JSON.parse(JSON.stringify(stateDelta.diffStates({ from: { ...held, etag: 'r41.z' }, to: states[1], base: 'r41.z', etag: 'r44.c' }))) as unknown;
    const calls = await scripted({ held, answers: [{ revision: 44, commands: false, delta: stale }], state: () => JSON.parse(JSON.stringify(states.shift())) as unknown });
    // at start, and after the watch: the delta from a build the node does not hold is never applied
    expect(calls.state).toBe(2);
    expect(calls.applied.map((s) => s.etag)).toEqual(['r43.b', 'r44.c']);
  });
});
