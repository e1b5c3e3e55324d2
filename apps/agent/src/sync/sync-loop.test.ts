import { edge, stateDelta } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { fullState } from '../test/fixtures';
import { runSyncLoop, type SyncLoopOptions } from './sync-loop';

type Watch = { revision: number; commands?: boolean; delta?: unknown };

type Stream = (o: { base?: string }, stop: AbortController) => AsyncGenerator<Watch>;

/**
 * A loop over scripted watch answers on one stream, stopped when they run out (or over the streams `stream` makes); the
 * applier holds `held` and records what it applies.
 */
const scripted = async ({ answers = [], stream, state, held }: { answers?: Watch[]; stream?: Stream; state: () => unknown; held?: edge.DesiredState }) => {
  const stop = new AbortController();
  const calls = { state: 0, wakes: 0, bases: [] as (string | undefined)[], applied: [] as edge.DesiredState[], logged: [] as string[] };
  let current = held;
  const api = {
    state: async () => {
      calls.state++;
      return state();
    },
    watchStream: async function* ({ base }: { base?: string }) {
      calls.bases.push(base);
      if (stream) return yield* stream({ base }, stop);
      while (answers.length) yield answers.shift()!;
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
  const log = (entry: { msg: string }) => void calls.logged.push(entry.msg);
  const options = { api, applier, signal: stop.signal, log, onApplied: () => undefined, onWake: () => calls.wakes++ };
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

  it('applies the deltas a watch stream carries one after another without asking for the state, on one stream', async () => {
    const first = { ...fullState(), revision: 42, etag: 'r42.a' };
    const second = structuredClone({ ...first, revision: 43, etag: 'r43.b' });
    second.data.sites[0].blacklist = ['203.0.113.5'];
    const third = structuredClone({ ...second, revision: 44, etag: 'r44.c' });
    third.data.sites[0].blacklist = ['203.0.113.6'];
    const deltaOf = (from: edge.DesiredState, to: edge.DesiredState) => JSON.parse(JSON.stringify(stateDelta.diffStates({ from, to, base: from.etag!, etag: to.etag! }))) as unknown;
    // the first state comes whole (the node holds none); then the stream tells of 43 and 44, each with its delta
    const answers = [{ revision: 43, commands: false, delta: deltaOf(first, second) }, { revision: 44, commands: false, delta: deltaOf(second, third) }];
    const calls = await scripted({ answers, state: () => JSON.parse(JSON.stringify(first)) as unknown });
    expect(calls.state).toBe(1);
    expect(calls.applied.map((s) => s.revision)).toEqual([42, 43, 44]);
    expect(calls.applied[2]).toEqual(edge.desiredState.parse(JSON.parse(JSON.stringify(third))));
    // the stream is opened once, naming the build held then: the API follows the builds its deltas lead to
    expect(calls.bases).toEqual(['r42.a']);
  });

  it('opens the stream again naming the build it fetched when an answer carried no delta', async () => {
    const states = [{ ...fullState(), revision: 42, etag: 'r42.a' }, { ...fullState(), revision: 43, etag: 'r43.b' }];
    const calls = await scripted({ answers: [{ revision: 43, commands: false }], state: () => JSON.parse(JSON.stringify(states.shift())) as unknown });
    expect(calls.state).toBe(2);
    expect(calls.bases).toEqual(['r42.a', 'r43.b']);
  });

  it('asks for the state when the delta a watch carries is not from the build it holds', async () => {
    const held = { ...fullState(), revision: 42, etag: 'r42.a' };
    const states = [{ ...held, revision: 43, etag: 'r43.b' }, { ...held, revision: 44, etag: 'r44.c' }];
    const stale = JSON.parse(JSON.stringify(stateDelta.diffStates({ from: { ...held, etag: 'r41.z' }, to: states[1], base: 'r41.z', etag: 'r44.c' }))) as unknown;
    const calls = await scripted({ held, answers: [{ revision: 44, commands: false, delta: stale }], state: () => JSON.parse(JSON.stringify(states.shift())) as unknown });
    // at start, and after the answer: the delta from a build the node does not hold is never applied
    expect(calls.state).toBe(2);
    expect(calls.applied.map((s) => s.etag)).toEqual(['r43.b', 'r44.c']);
  });

  it('opens a stream cut after it lived a while again at once, naming what it holds, without fetching the state', async () => {
    const held = { ...fullState(), revision: 42, etag: 'r42.a' };
    let opened = 0;
    const stream: Stream = async function* (_, stop) {
      if (opened++) {
        stop.abort();
        throw new Error('stopped');
      }
      yield { revision: 42, commands: false };
      await new Promise((r) => setTimeout(r, 1100));
      throw new Error('terminated');
    };
    const calls = await scripted({ stream, state: () => JSON.parse(JSON.stringify(held)) as unknown });
    expect(calls.bases).toEqual(['r42.a', 'r42.a']);
    expect(calls.state).toBe(1);
    expect(calls.logged).toContain('watch stream cut');
    expect(calls.logged).not.toContain('control plane unreachable');
  });
});
