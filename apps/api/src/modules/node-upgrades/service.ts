import type { nodeUpgradeSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { agentPackage, agentVersion, packageChecksum } from '../../lib/agent-package';
import { nodesOf } from '../nodes/repo';
import { ownedNodes, statusOf, visibleNode } from '../nodes/service';
import { clientOf } from '../zones/service';
import * as repo from './repo';

type State = nodeUpgradeSchemas.UpgradeState;

/** A finished upgrade to an older version than the one shipped now counts as not updated. */
const stateOf = (upgrade: repo.UpgradeRow | undefined, nodeVersion: string | null, latest: string): State => {
  if (!upgrade) return 'notUpdated';
  if (upgrade.state === 'updating' || upgrade.state === 'failed') return upgrade.state;
  return nodeVersion === latest ? 'complete' : 'notUpdated';
};

export const latestVersion = () => ({ version: agentVersion() });

export async function listUpgradeNodes(deps: AppDeps, principal: Principal, query: z.infer<typeof nodeUpgradeSchemas.upgradeNodesQuery>) {
  const actor = await clientOf(deps, principal);
  let q = nodesOf(deps, actor);
  if (query.zoneID) q = q.where('nodes.zone_id', '=', query.zoneID);
  if (query.keyword) {
    const like = `%${query.keyword}%`;
    q = q.where((eb) => eb.or([eb('nodes.name', 'like', like), eb('nodes.ip', 'like', like)]));
  }
  const page = await paginate(q, {
    page: query,
    sortable: { name: 'nodes.name', ip: 'nodes.ip', version: 'nodes.version', createdAt: 'nodes.created_at' },
    defaultSort: { column: 'nodes.created_at', order: 'desc' },
    idColumn: 'nodes.id',
  });
  const latest = agentVersion();
  const upgrades = await repo.latestUpgrades(deps.db, page.data.map((n) => n.id));
  const data = page.data.map((n) => {
    const upgrade = upgrades.get(n.id);
    return {
      id: n.id,
      name: n.name,
      ip: n.ip,
      zoneName: n.zone_name,
      status: statusOf(n),
      version: n.version,
      latestVersion: latest,
      upgradeState: stateOf(upgrade, n.version, latest),
      progress: upgrade?.progress ?? 0,
      upgradeAt: upgrade?.created_at ?? null,
    };
  });
  return { data, total: page.total };
}

/** Queues an upgrade per node: the agent fetches the package served at /agent/package.tgz and checks its SHA-256. */
export async function upgradeNodes(deps: AppDeps, principal: Principal, ids: number[]) {
  const { nodes } = await ownedNodes(deps, principal, [...new Set(ids)]);
  const version = agentVersion();
  const sha256 = await packageChecksum(await agentPackage(deps.config.dataDir));
  const upgrades = [];
  for (const node of nodes) {
    const upgradeId = await repo.queueUpgrade(deps.db, {
      nodeId: node.id,
      fromVersion: node.version,
      toVersion: version,
      accountId: principal.accountId,
      args: (id) => ({ version, url: '/agent/package.tgz', sha256, upgradeId: id }),
    });
    upgrades.push({ nodeID: node.id, upgradeID: upgradeId });
  }
  await deps.revisions.wake(deps.db, [...new Set(nodes.map((n) => n.zone_id))]);
  return { upgrades };
}

export async function upgradeLog(deps: AppDeps, principal: Principal, nodeId: number) {
  const node = await visibleNode(deps, await clientOf(deps, principal), nodeId);
  const upgrade = (await repo.latestUpgrades(deps.db, [node.id])).get(node.id);
  return {
    state: stateOf(upgrade, node.version, agentVersion()),
    fromVersion: upgrade?.from_version ?? null,
    toVersion: upgrade?.to_version ?? null,
    progress: upgrade?.progress ?? 0,
    lines: upgrade ? await repo.logLines(deps.db, upgrade.id) : [],
  };
}

/** An upgrade with no outcome after this long has failed: its node never answered (offline, or an agent without upgrades). */
export const UPGRADE_TIMEOUT_MS = 15 * 60_000;
export const UPGRADE_TIMEOUT_JOB = 'node-upgrade-timeouts';

export async function failStaleUpgrades(deps: AppDeps, at = Date.now()) {
  for (const u of await repo.staleUpgrades(deps.db, new Date(at - UPGRADE_TIMEOUT_MS).toISOString())) {
    await repo.appendStep(deps.db, { nodeId: u.node_id, upgradeId: u.id, message: 'no outcome from the node within 15 minutes: the upgrade has failed', state: 'failed' });
  }
}

/** A failed upgrade command ends its upgrade, whatever the agent managed to log before. */
export async function upgradeCommandAnswered(deps: AppDeps, o: { nodeId: number; commandId: number; ok: boolean; message: string }) {
  if (o.ok) return;
  const upgrade = await repo.runningUpgradeOfCommand(deps.db, o.nodeId, o.commandId);
  if (!upgrade) return;
  await repo.appendStep(deps.db, { nodeId: o.nodeId, upgradeId: upgrade.id, message: `the node answered: ${o.message.slice(0, 2000)}`, state: 'failed' });
}
