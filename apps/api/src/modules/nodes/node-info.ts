import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { clientOf } from '../zones/service';
import { nodesRepo } from './repo';
import { nodeSystem, toItem } from './service';

const percent = (u: { totalBytes: number; usedBytes: number } | null) => (u && u.totalBytes > 0 ? `${((u.usedBytes / u.totalBytes) * 100).toFixed(1)}%` : '');
const geneva = (g: { enabled: boolean; version: string; windowSize: number } | null) => (g ? `${g.enabled ? 'on' : 'off'} ${g.version} window ${g.windowSize}` : '');

const full = (d: { freeBytes: number; totalBytes: number; writeError: string | null } | null) =>
  d ? `free ${d.freeBytes} of ${d.totalBytes} bytes${d.writeError ? `; ${d.writeError}` : ''}` : '';

/** The node as `key=value` lines (spec §7 node-info), for pasting into a ticket or a script; one line per key, always. */
export async function nodeInfo(deps: AppDeps, principal: Principal, id: number) {
  const repo = nodesRepo(deps, await clientOf(deps, principal));
  const reached = await repo.get(id);
  const node = toItem(reached);
  const system = await nodeSystem(deps, principal, id);
  const subs = await repo.subNodes(reached);
  const lines: [string, string | number | boolean | null][] = [
    ['nodeID', node.id],
    ['nodeUID', node.nodeUID],
    ['name', node.name],
    ['ip', node.ip],
    ['subNodes', subs.map((s) => s.ip).join(',')],
    ['zone', node.zoneName],
    ['zoneID', node.zoneID],
    ['type', node.type],
    ['role', node.role],
    ['portType', node.portType],
    ['virtual', node.virtual],
    ['enabled', node.enabled],
    ['status', node.status],
    ['initialized', node.initialized],
    ['version', node.version],
    ['cpu', system.cpuPercent === null ? '' : `${Number(system.cpuPercent).toFixed(1)}%`],
    ['memory', percent(system.memory)],
    ['disk', percent(system.disk)],
    ['lastReport', node.lastReportAt],
    ['revision', node.revision],
    ['revisionApplied', node.appliedRevision],
    ['applyError', node.applyError],
    ['monitorBreach', node.monitorBreach],
    ['geneva', geneva(node.geneva)],
    ['genevaReported', geneva(node.genevaReported)],
    ['diskFull', full(node.diskFull)],
  ];
  return `${lines.map(([k, v]) => `${k}=${String(v ?? '').replace(/[\r\n]+/g, ' ')}`).join('\n')}\n`;
}
