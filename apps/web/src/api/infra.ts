import { call, callList, callText } from './client';
import type {
  CommandKind,
  DnsLine,
  Enrolment,
  Group,
  GroupBody,
  Node,
  NodeBody,
  NodeCommand,
  NodeGeneva,
  NodeMonitor,
  NodeSystem,
  NodeUpdate,
  PreheatResult,
  Resolution,
  SubNode,
  Zone,
  ZoneBody,
  ZoneSettingBodies,
  ZoneSettings,
} from './infra-types';
import type { Query } from './url';

const tier = 'client' as const;
const get = <T>(path: string, query?: Query) => call<T>(path, { tier, query });
const list = <T>(path: string, query?: Query) => callList<T>(path, { tier, query });
const send = <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) => call<T>(path, { tier, method, body });

/** The client tier's zones, nodes and lines (spec §7, "Client calls"). */
export const infraApi = {
  zones: (query: Query) => list<Zone>('client/zones', query),
  createZone: (body: ZoneBody) => send<Zone>('POST', 'client/zone', body),
  updateZone: (body: ZoneBody & { id: number }) => send<Zone>('PUT', 'client/zone', body),
  removeZone: (id: number) => send<unknown>('DELETE', 'client/zone', { id }),
  zoneSettings: (zoneID: number) => get<ZoneSettings>(`client/zone/${zoneID}/settings`),
  setZoneSetting: <K extends keyof ZoneSettingBodies>(zoneID: number, name: K, body: ZoneSettingBodies[K]) =>
    send<ZoneSettings>('PUT', `client/zone/${zoneID}/${name}`, body),
  flushIpset: (zoneID: number) => send<ZoneSettings>('DELETE', `client/zone/${zoneID}/ipset/flush`),
  preheatResult: (zoneID: number) => call<PreheatResult>(`client/zone/${zoneID}/preheatCaches`, { tier, delayMs: 0 }),
  subClientZones: (clientId: number) => get<{ zoneIDs: number[] }>(`client/${clientId}/zones`),
  assignZones: (clientId: number, zoneIDs: number[]) => send<{ zoneIDs: number[] }>('PUT', `client/${clientId}/zones`, { zoneIDs }),

  nodes: (query: Query) => list<Node>('client/nodes', query),
  createNode: (body: NodeBody) => send<Node>('POST', 'client/node', body),
  updateNode: (body: NodeUpdate) => send<Node>('PUT', 'client/node', body),
  removeNodes: (ids: number[]) => send<unknown>('DELETE', 'client/nodes', { ids }),
  initialize: (id: number) => send<Enrolment>('POST', 'client/nodes/initialize', { id }),
  deinitialize: (ids: number[]) => send<unknown>('DELETE', 'client/nodes/initialized', { ids }),
  setNodesEnabled: (ids: number[], enabled: boolean) => send<unknown>('PUT', 'client/node/status', { ids, enabled }),
  moveNodes: (ids: number[], zoneID: number) => send<unknown>('PUT', 'client/node/zone', { ids, zoneID }),
  setNodesMemo: (ids: number[], memo: string) => send<unknown>('PUT', 'client/node/memo', { ids, memo }),
  nodeSystem: (id: number) => call<NodeSystem>(`client/node/${id}/system`, { tier, delayMs: 0 }),
  nodeCommand: (id: number, kind: CommandKind, urls?: string[]) => send<NodeCommand>('POST', `client/node/${id}/command`, { kind, urls }),
  nodeCommands: (id: number) => call<NodeCommand[]>(`client/node/${id}/commands`, { tier, delayMs: 0 }),
  subNodes: (id: number) => get<SubNode[]>(`client/node/${id}/subNodes`),
  addSubNode: (id: number, body: { ip: string; memo?: string }) => send<SubNode>('POST', `client/node/${id}/subNodes`, body),
  removeSubNodes: (id: number, ids: number[]) => send<unknown>('DELETE', `client/node/${id}/subNodes`, { ids }),
  setNodesMonitor: (ids: number[], monitor: NodeMonitor) => send<unknown>('PUT', 'client/node/monitor', { ids, ...monitor }),
  setNodesGeneva: (ids: number[], geneva: NodeGeneva) => send<unknown>('PUT', 'client/node/geneva', { ids, ...geneva }),
  nodeInfo: (id: number) => callText(`client/node/${id}/info`, { tier }),
  resolutions: (query: Query) => list<Resolution>('client/dns/resolutions', query),

  dnsLines: () => get<DnsLine[]>('client/dns/lines'),
  groups: (zoneID: number, query: Query) => list<Group>(`client/zone/${zoneID}/groups`, query),
  createGroup: (zoneID: number, body: GroupBody) => send<Group>('POST', `client/zone/${zoneID}/group`, body),
  updateGroup: (zoneID: number, body: Partial<GroupBody> & { id: number }) => send<Group>('PUT', `client/zone/${zoneID}/group`, body),
  removeGroup: (zoneID: number, id: number) => send<unknown>('DELETE', `client/zone/${zoneID}/group`, { id }),
};
