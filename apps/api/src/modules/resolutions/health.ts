import { agentProtocol } from '@edgekeep/contract';
import { readJson } from '../../db/json-column';

/** Agents report every 10 s; a node silent for longer than this is offline. */
export const OFFLINE_AFTER_SECONDS = 45;

export type NodeMonitor = agentProtocol.NodeSettings['monitor'];
export type NodeGeneva = agentProtocol.NodeSettings['geneva'];

export const monitorOf = (n: { monitor: string | null }): NodeMonitor =>
  n.monitor ? readJson('nodes.monitor', agentProtocol.nodeMonitor, n.monitor) : { ...agentProtocol.MONITOR_DEFAULT };
export const genevaOf = (n: { geneva: string | null }): NodeGeneva => (n.geneva ? readJson('nodes.geneva', agentProtocol.nodeGeneva, n.geneva) : { ...agentProtocol.GENEVA_DEFAULT });

type Usage = { cpuPercent: number; memory: { totalBytes: number; usedBytes: number }; disk: { totalBytes: number; usedBytes: number } };
const percent = (u: { totalBytes: number; usedBytes: number }) => (u.totalBytes > 0 ? (u.usedBytes / u.totalBytes) * 100 : 0);

/** Which thresholds a report exceeds, as text ("cpu 97% > 90%"), or null when it stays under all of them. */
export function breachOf(monitor: NodeMonitor, usage: Usage | null): string | null {
  if (!monitor.enabled || !usage) return null;
  const over = [
    ['cpu', usage.cpuPercent, monitor.cpuPercent],
    ['memory', percent(usage.memory), monitor.memoryPercent],
    ['disk', percent(usage.disk), monitor.diskPercent],
  ]
    .filter(([, used, max]) => (used as number) > (max as number))
    .map(([name, used, max]) => `${name} ${Math.round(used as number)}% > ${max}%`);
  return over.length ? over.join(', ') : null;
}

export type HealthFields = {
  enabled: number;
  virtual: number;
  initialized_at: string | null;
  last_report_at: string | null;
  apply_error: string | null;
  monitor_breach: string | null;
  monitor: string | null;
};

export const isFresh = (n: Pick<HealthFields, 'last_report_at'>, at = Date.now()) =>
  n.last_report_at !== null && at - Date.parse(n.last_report_at) <= OFFLINE_AFTER_SECONDS * 1000;

/**
 * Whether an ordinary node answers in the DNS resolution: enabled, enrolled, reporting, its last apply good, and
 * not over a monitor threshold that takes it out.
 */
export function isResolvable(n: HealthFields, at = Date.now()) {
  if (n.virtual || !n.enabled || !n.initialized_at || !isFresh(n, at) || n.apply_error) return false;
  return !(n.monitor_breach && monitorOf(n).removeFromResolution);
}
