import type { monitorSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from './client';
import type { Query } from './url';

export type Monitor = z.infer<typeof monitorSchemas.monitorItem>;
export type MonitorBody = z.input<typeof monitorSchemas.updateMonitorBody>;
export type MonitorGroup = z.infer<typeof monitorSchemas.monitorGroupItem>;
export type UnmonitoredNode = z.infer<typeof monitorSchemas.notInitItem>;

const tier = 'client' as const;
const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<unknown>(path, { tier, method, body });

export const monitorsApi = {
  list: (query: Query) => callList<Monitor>('client/monitor/nodes', { tier, query }),
  notInit: (query: Query) => callList<UnmonitoredNode>('client/monitor/nodes/notInit', { tier, query }),
  init: (nodeIDs: number[]) => send('POST', 'client/monitor/nodes', { nodeIDs }),
  update: (body: MonitorBody) => call<Monitor>('client/monitor/node', { tier, method: 'PUT', body }),
  remove: (ids: number[]) => send('DELETE', 'client/monitor/nodes', { ids }),
  enable: (ids: number[], enabled: boolean) => send('PUT', 'client/monitor/nodes/enableStatus', { ids, enabled }),
  meta: () => call<{ id: number; name: string }[]>('client/monitor/metaMonitors', { tier }),
  groups: (query: Query) => callList<MonitorGroup>('client/monitor/groups', { tier, query }),
  createGroup: (body: { name: string; memo: string }) => call<MonitorGroup>('client/monitor/group', { tier, method: 'POST', body }),
  updateGroup: (body: { id: number; name: string; memo: string }) => call<MonitorGroup>('client/monitor/group', { tier, method: 'PUT', body }),
  removeGroups: (ids: number[]) => send('DELETE', 'client/monitor/groups', { ids }),
  addToGroup: (groupID: number, nodeIDs: number[]) => send('POST', `client/monitor/group/${groupID}/nodes`, { nodeIDs }),
  removeFromGroup: (groupID: number, nodeIDs: number[]) => send('DELETE', `client/monitor/group/${groupID}/nodes`, { nodeIDs }),
};
