import { Readable } from 'node:stream';
import { agentProtocol, stateDelta } from '@edgekeep/contract';
import type { AppDeps } from '../deps';
import type { EdgeNode } from '../http/auth';

type Answer = { revision: number; commands: boolean; delta?: stateDelta.StateDelta };

/**
 * A node's watch kept open (`agentRoutes.watchStream`): the answers `watch` would give, one JSON line each, for as
 * long as the node reads them. Its first line comes at once; then it waits past `since` as a watch does, tells the
 * node what `answer` gives, and waits again past what it told: a change costs the node one line, not an answer, a
 * new watch and its authentication. After a line that carried a delta, the next delta is from the build that delta
 * led to (the one the node then holds); a node that had to fetch its state instead opens the stream again, naming
 * the build it fetched. The stream ends after `maxMs`, when the node goes, when its zone's credentials change (the
 * node opens it again and is known afresh: a revoked one is refused) and when the server shuts down.
 */
export function watchStream(
  deps: Pick<AppDeps, 'db' | 'revisions'>,
  o: {
    node: EdgeNode;
    since: number;
    base?: string;
    watchMs: number;
    maxMs?: number;
    /** The answer to a watch past `since` from a node holding `base`, at `revision`. */
    answer: (node: EdgeNode, query: { since: number; base?: string }, revision: number) => Promise<Answer>;
    /** Called once: when the node's connection closes. */
    onClose: (listener: () => void) => void;
  },
): Readable {
  const { node, watchMs, answer, maxMs = agentProtocol.WATCH_STREAM_SECONDS * 1000 } = o;
  let ended = false;
  let stopWait = () => {};
  const end = () => {
    ended = true;
    stopWait();
  };
  o.onClose(end);
  const stopHearing = deps.revisions.onCredentialsChanged((zoneIds) => (!zoneIds || zoneIds.includes(node.zone_id)) && end());
  async function* lines() {
    let { since, base } = o;
    let first = true;
    const until = Date.now() + maxMs;
    try {
      while (!ended && !deps.revisions.released && Date.now() < until) {
        // listening before the revision is read: a change committed meanwhile still wakes it
        const wait = deps.revisions.next(node.zone_id, Math.min(watchMs, until - Date.now()));
        stopWait = wait.stop;
        let revision = await deps.revisions.revision(deps.db, node.zone_id);
        // the first line goes at once (the response begins with it), the others as a watch would answer
        if (revision > since || first) wait.stop();
        else {
          await wait.woke;
          if (ended) return;
          revision = await deps.revisions.revision(deps.db, node.zone_id);
        }
        const told = await answer(node, { since, base }, revision);
        if (ended) return;
        yield `${JSON.stringify(told)}\n`;
        first = false;
        since = Math.max(since, revision);
        if (told.delta) base = told.delta.etag;
      }
    } finally {
      stopHearing();
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
