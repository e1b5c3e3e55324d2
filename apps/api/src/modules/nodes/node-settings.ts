import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { breachOf, type NodeGeneva, type NodeMonitor } from '../resolutions/health';
import { refreshResolutions } from '../resolutions/service';
import { ownedNodes, readReport } from './service';

/**
 * Sets the monitor thresholds of nodes. Each node's last report is judged against them at once, and again at
 * every report: a breach makes the node's status error and, when the thresholds say so, takes it out of the
 * DNS resolution. The agents get the thresholds in their desired state.
 */
export async function setNodesMonitor(deps: AppDeps, principal: Principal, ids: number[], monitor: NodeMonitor) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  for (const node of nodes) {
    const report = node.report ? readReport(node.report) : null;
    await repo.update([node], { monitor: JSON.stringify(monitor), monitor_breach: breachOf(monitor, report) });
  }
  const zones = [...new Set(nodes.map((n) => n.zone_id))];
  await deps.revisions.bump(deps.db, zones);
  await refreshResolutions(deps, zones);
}

/** Sets the Geneva setting of nodes; their agents get it in their desired state and report what they hold. */
export async function setNodesGeneva(deps: AppDeps, principal: Principal, ids: number[], geneva: NodeGeneva) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  await repo.update(nodes, { geneva: JSON.stringify(geneva) });
  await deps.revisions.bump(deps.db, [...new Set(nodes.map((n) => n.zone_id))]);
}
