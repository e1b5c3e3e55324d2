import { edge, ITEM_LIST_MAX, stateDelta } from '@edgekeep/contract';

export type Received = { ok: true; state: edge.DesiredState } | { ok: false; error: string };

/**
 * The state an answer of `GET /state` gives the node that holds `held`: a whole state checked whole, or a delta
 * from `held` whose own entries are checked by its schema and the state it makes by what only the whole can tell
 * (duplicate names, certificates, ports). Nothing is half-applied: the held state is never changed. A delta from
 * another base than the held one gives undefined: the caller asks for the whole state.
 */
export const receivedState = (json: unknown, held: edge.DesiredState | undefined): Received | undefined => {
  if (!stateDelta.isDelta(json)) {
    const parsed = edge.desiredState.safeParse(json);
    return parsed.success ? { ok: true, state: parsed.data } : { ok: false, error: parsed.error.message };
  }
  if (!held?.etag || json.base !== held.etag) return undefined;
  const delta = stateDelta.stateDelta.safeParse(json);
  if (!delta.success) return { ok: false, error: delta.error.message };
  const state = stateDelta.applyDelta(held, delta.data);
  // a site's domain list is checked whole by the state's schema, here only by its size
  const crowded = state.structure.sites.flatMap((site, s) =>
    site.domains.length > ITEM_LIST_MAX ? [{ path: ['structure', 'sites', s, 'domains'], message: `more than ${ITEM_LIST_MAX} domains` }] : [],
  );
  const issues = [...crowded, ...edge.stateIssues(state)];
  return issues.length ? { ok: false, error: JSON.stringify(issues.slice(0, 20)) } : { ok: true, state };
};
