import * as s from '../schemas/node-upgrades';
import { envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client';
const tag = 'System upgrade';

export const nodeUpgradeRoutes = {
  latestVersion: defineRoute({ id: 'client.node.latestVersion', method: 'GET', path: 'client/node/latestVersion', tier, permission: 'system.view', tag,
    summary: 'The agent version this control plane ships (what an upgrade installs)', response: envelope(s.latestVersion) }),
  nodes: defineRoute({ id: 'client.node.upgrades', method: 'GET', path: 'client/node/upgrades', tier, permission: 'system.view', tag,
    summary: 'Nodes with their agent version and upgrade state and progress', query: s.upgradeNodesQuery, response: paged(s.upgradeNodeItem) }),
  upgrade: defineRoute({ id: 'client.node.upgrade', method: 'POST', path: 'client/node/upgrade', tier, permission: 'system.edit', tag,
    summary: 'Upgrade nodes to the latest agent version (each node fetches, verifies, switches over and restarts)', body: s.upgradeBody, response: envelope(s.upgradeQueued) }),
  logs: defineRoute({ id: 'client.node.upgrade.logs', method: 'GET', path: 'client/node/{nodeID}/upgrade/logs', tier, permission: 'system.view', tag,
    summary: "The node's last upgrade: state, versions and each step its agent reported", params: s.upgradeLogParams, response: envelope(s.upgradeLog) }),
} as const;
