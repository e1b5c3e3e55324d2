import { perObject, stateDelta, type edge } from '@edgekeep/contract';
import type { Db } from '../db';
import type { EdgeNode } from '../http/auth';
import type { RevisionBus } from '../lib/revisions';
import { sha256 } from '../lib/crypto';
import { stateInputsOfNodes } from '../modules/nodes/repo';
import { genevaOf, monitorOf } from '../modules/resolutions/health';

/** A built state is reused this long at most, however often its zone's revision stays the same. */
const TTL_MS = 60_000;
/** Inputs (zone, cache capacity, groups) whose builds are kept; the least recently built go first. */
const MAX_ENTRIES = 256;
/** Builds kept per inputs: the newest and those before it, the bases a node may still hold. */
const KEEP = 3;
/** How long the inputs of a zone's nodes read at a revision are kept: a change that moves no revision (a node's monitor) is seen within this. */
const INPUTS_KEPT_MS = 5000;

type Built = { state: edge.DesiredState; etag: string };

/** Deltas between builds, by the build they lead to and the etag of the one they start from. */
const deltas = new WeakMap<Built, Map<string, stateDelta.StateDelta>>();
/** The delta from one build to another, worked out once for all the nodes that hold `from` (after a change, a zone's nodes together). */
const deltaBetween = (from: Built, to: Built) => {
  let byBase = deltas.get(to);
  if (!byBase) deltas.set(to, (byBase = new Map()));
  let delta = byBase.get(from.etag);
  if (!delta) byBase.set(from.etag, (delta = stateDelta.diffStates({ from: from.state, to: to.state, base: from.etag, etag: to.etag })));
  return delta;
};
type Build = { revision: number; at: number; made: Promise<Built> };

/** A site's part of a build's name, worked out once per site object. */
const siteDigest = perObject((site: object) => sha256(JSON.stringify(site)));

/**
 * A build's name: its revision and a hash of what it holds for all the nodes of its inputs (not the own parts of
 * the node it was built for), so that every API instance that built the same state names it alike and a node behind
 * a balancer gets its delta from whichever instance answers.
 */
const named = (state: edge.DesiredState): Built => {
  const shared = { ...state, node: undefined, data: { ...state.data, zone: { ...state.data.zone, ray: { ...state.data.zone.ray, node: 0 } } } };
  const { sites } = state.structure;
  // a site a build keeps from the one before (state.ts) is the same object: its digest is not worked out again
  const text = JSON.stringify(shared, function (this: unknown, _key, value: unknown) {
    return this === sites ? siteDigest(value as object) : value;
  });
  return { state, etag: `${state.revision}.${sha256(text).slice(0, 32)}` };
};

/**
 * Every node of a zone gets the same desired state but for what is its own: its settings (monitor, Geneva), its ray
 * id and, through its cache capacity and its groups, the zone's cache size and the sites forced onto a backup group.
 * When a zone's revision moves, all its nodes ask for the new state at once: it is built once per instance for the
 * nodes that share those inputs (a build in progress is shared too) and made each node's own as it is answered.
 * Each build is named by an etag (its content's); a node that names the build it holds (`base`) gets what changed
 * since, while this instance keeps a build of that name (the last KEEP of the same inputs), else the whole state.
 */
export function createStateCache({
  db,
  build,
  revisions,
}: {
  db: Db;
  build: (nodeId: number, prior?: Promise<edge.DesiredState>) => Promise<edge.DesiredState>;
  revisions: Pick<RevisionBus, 'readOnce' | 'revision'>;
}) {
  const entries = new Map<string, Build[]>();

  const newest = (key: string, revision: number, nodeId: number) => {
    const builds = entries.get(key) ?? [];
    const now = Date.now();
    const fresh = builds.find((b) => b.revision === revision && now - b.at <= TTL_MS);
    if (fresh) return fresh;
    // a new revision is built from the newest build of the same inputs: only what changed since is read again
    const prior = builds[0] && builds[0].revision < revision ? builds[0].made.then((b) => b.state) : undefined;
    const made: Build = { revision, at: now, made: build(nodeId, prior).then(named) };
    entries.delete(key);
    entries.set(key, [made, ...builds.filter((b) => b.revision <= revision)].slice(0, KEEP));
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    made.made.catch(() => entries.set(key, (entries.get(key) ?? []).filter((b) => b !== made)));
    return made;
  };

  async function stateOf({ id: nodeId, zone_id: zoneId }: EdgeNode, base?: string): Promise<edge.DesiredState | stateDelta.StateDelta> {
    // the inputs of the zone's nodes are read once per revision for them all; a node not among them (new, or moved since) alone
    const revision = await revisions.revision(db, zoneId);
    const zone = await revisions.readOnce(zoneId, `state inputs at ${revision}`, () => inputsOf(db, ['nodes.zone_id', zoneId]), INPUTS_KEPT_MS);
    const node = zone.get(nodeId) ?? (await inputsOf(db, ['nodes.id', nodeId])).get(nodeId);
    if (!node) throw new Error(`node ${nodeId} is gone`);
    const key = [node.zone_id, node.cache_capacity, node.groups].join(':');
    const answer = await newest(key, node.revision, nodeId).made;
    const state = answer.state;
    const own = { node: { monitor: monitorOf(node), geneva: genevaOf(node) }, zoneData: { ...state.data.zone, ray: { ...state.data.zone.ray, node: nodeId } } };
    const kept = base === undefined ? [] : await Promise.all((entries.get(key) ?? []).map((b) => b.made.catch(() => undefined)));
    const from = kept.find((b) => b?.etag === base);
    if (from) return { ...deltaBetween(from, answer), node: own.node, zoneData: own.zoneData };
    return { ...state, etag: answer.etag, node: own.node, data: { ...state.data, zone: own.zoneData } };
  }
  return stateOf as StateOf;
}

/** The whole state without a base; with one, a delta when the build it names is kept. */
type StateOf = {
  (node: EdgeNode): Promise<edge.DesiredState>;
  (node: EdgeNode, base: string | undefined): Promise<edge.DesiredState | stateDelta.StateDelta>;
};

/** What a node's state depends on besides its zone's revision (see `createStateCache`), by node: of a zone's nodes or of one node. */
async function inputsOf(db: Db, [column, id]: ['nodes.zone_id' | 'nodes.id', number]) {
  const [nodes, members] = await stateInputsOfNodes(db, [column, id]);
  const groups = new Map<number, number[]>();
  for (const m of members) groups.set(m.node_id, [...(groups.get(m.node_id) ?? []), m.group_id]);
  return new Map(nodes.map((n) => [n.id, { ...n, groups: (groups.get(n.id) ?? []).join('.') }]));
}
