import { randomBytes } from 'node:crypto';
import { stateDelta, type edge } from '@edgekeep/contract';
import type { Db } from '../db';
import { genevaOf, monitorOf } from '../modules/resolutions/health';

/** A built state is reused this long at most, however often its zone's revision stays the same. */
const TTL_MS = 60_000;
/** Inputs (zone, cache capacity, groups) whose builds are kept; the least recently built go first. */
const MAX_ENTRIES = 256;
/** Builds kept per inputs: the newest and those before it, the bases a node may still hold. */
const KEEP = 3;

type Build = { revision: number; etag: string; at: number; state: Promise<edge.DesiredState> };

/** This instance's builds' names: another instance's etag is never taken for one of these. */
const instance = randomBytes(4).toString('hex');
let built = 0;

/**
 * Every node of a zone gets the same desired state but for what is its own: its settings (monitor, Geneva), its ray
 * id and, through its cache capacity and its groups, the zone's cache size and the sites forced onto a backup group.
 * When a zone's revision moves, all its nodes ask for the new state at once: it is built once per instance for the
 * nodes that share those inputs (a build in progress is shared too) and made each node's own as it is answered.
 * Each build is named by an etag; a node that names the build it holds (`base`) gets what changed since, while this
 * instance still keeps that build (the last KEEP of the same inputs), else the whole state.
 */
export function createStateCache({ db, build }: { db: Db; build: (nodeId: number) => Promise<edge.DesiredState> }) {
  const entries = new Map<string, Build[]>();

  const newest = (key: string, revision: number, nodeId: number) => {
    const builds = entries.get(key) ?? [];
    const now = Date.now();
    const fresh = builds.find((b) => b.revision === revision && now - b.at <= TTL_MS);
    if (fresh) return fresh;
    const made: Build = { revision, etag: `${revision}.${instance}.${++built}`, at: now, state: build(nodeId) };
    entries.delete(key);
    entries.set(key, [made, ...builds.filter((b) => b.revision <= revision)].slice(0, KEEP));
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    made.state.catch(() => entries.set(key, (entries.get(key) ?? []).filter((b) => b !== made)));
    return made;
  };

  async function stateOf(nodeId: number, base?: string): Promise<edge.DesiredState | stateDelta.StateDelta> {
    const node = await db
      .selectFrom('nodes')
      .innerJoin('zones', 'zones.id', 'nodes.zone_id')
      .select(['nodes.zone_id', 'zones.revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
      .where('nodes.id', '=', nodeId)
      .executeTakeFirstOrThrow();
    const groups = await db.selectFrom('node_group_members').select('group_id').where('node_id', '=', nodeId).orderBy('group_id').execute();
    const key = [node.zone_id, node.cache_capacity, groups.map((g) => g.group_id).join('.')].join(':');
    const answer = newest(key, node.revision, nodeId);
    const state = await answer.state;
    const own = { node: { monitor: monitorOf(node), geneva: genevaOf(node) }, zoneData: { ...state.data.zone, ray: { ...state.data.zone.ray, node: nodeId } } };
    const held = base === undefined ? undefined : entries.get(key)?.find((b) => b.etag === base);
    const from = held && (await held.state.catch(() => undefined));
    if (from) return { ...stateDelta.diffStates({ from, to: state, base: held.etag, etag: answer.etag }), node: own.node, zoneData: own.zoneData };
    return { ...state, etag: answer.etag, node: own.node, data: { ...state.data, zone: own.zoneData } };
  }
  return stateOf as StateOf;
}

/** The whole state without a base; with one, a delta when the build it names is kept. */
type StateOf = {
  (nodeId: number): Promise<edge.DesiredState>;
  (nodeId: number, base: string | undefined): Promise<edge.DesiredState | stateDelta.StateDelta>;
};
