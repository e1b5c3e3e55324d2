import { z } from 'zod';
import * as s from '../schemas/infra';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const zones = 'Zones';
const nodes = 'Nodes';
const tier = 'client' as const;
const setting = <B extends z.ZodType>(name: string, body: B, summary: string) =>
  defineRoute({ id: `client.zone.${name}`, method: 'PUT', path: `client/zone/{zoneID}/${name}`, tier, permission: 'zones.edit', tag: zones,
    summary, params: s.zoneParams, body, response: envelope(s.zoneSettings) });

export const infraRoutes = {
  zones: defineRoute({ id: 'client.zones', method: 'GET', path: 'client/zones', tier, permission: 'zones.view', tag: zones,
    summary: 'Zones of the client (a sub-client sees the zones assigned to it)', query: s.zonesQuery, response: paged(s.zoneItem) }),
  metaZones: defineRoute({ id: 'client.metaZones', method: 'GET', path: 'client/metaZones', tier, permission: 'zones.view', tag: zones,
    summary: 'Every zone of the client, for pickers', response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  createZone: defineRoute({ id: 'client.zone.create', method: 'POST', path: 'client/zone', tier, permission: 'zones.edit', tag: zones,
    summary: 'Create a zone (open ports 80 and 443 to start with)', body: s.createZoneBody, response: envelope(s.zoneItem) }),
  updateZone: defineRoute({ id: 'client.zone.update', method: 'PUT', path: 'client/zone', tier, permission: 'zones.edit', tag: zones,
    summary: 'Rename a zone or change its regions and memo', body: s.updateZoneBody, response: envelope(s.zoneItem) }),
  removeZone: defineRoute({ id: 'client.zone.remove', method: 'DELETE', path: 'client/zone', tier, permission: 'zones.edit', tag: zones,
    summary: 'Remove a zone that has no nodes left (201001)', body: s.zoneRef, response: done }),
  subClientZones: defineRoute({ id: 'client.subClient.zones', method: 'GET', path: 'client/{clientId}/zones', tier, permission: 'zones.view', tag: zones,
    summary: 'The zones assigned to a sub-client', params: s.clientParams, response: envelope(s.zoneAssignment) }),
  assignZones: defineRoute({ id: 'client.subClient.assignZones', method: 'PUT', path: 'client/{clientId}/zones', tier, permission: 'zones.edit', tag: zones,
    summary: 'Assign zones to a sub-client (replaces the set)', params: s.clientParams, body: s.zoneAssignment, response: envelope(s.zoneAssignment) }),
  zoneSettings: defineRoute({ id: 'client.zone.settings', method: 'GET', path: 'client/zone/{zoneID}/settings', tier, permission: 'zones.view', tag: zones,
    summary: "A zone's ports and nginx settings", params: s.zoneParams, response: envelope(s.zoneSettings) }),
  zonePorts: setting('ports', s.zonePorts, 'Set the HTTP and HTTPS ports every node of the zone listens on'),
  nginxWorker: setting('nginx/worker', s.nginxWorker, 'Set nginx worker processes and connections'),
  nginxHttp: setting('nginx/http', s.nginxHttp, 'Set client body size, keep-alive timeout and cache size'),

  nodes: defineRoute({ id: 'client.nodes', method: 'GET', path: 'client/nodes', tier, permission: 'nodes.view', tag: nodes,
    summary: 'Nodes with their reported status (filters zoneID, keyword, status)', query: s.nodesQuery, response: paged(s.nodeItem) }),
  createNode: defineRoute({ id: 'client.node.create', method: 'POST', path: 'client/node', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Add a node to a zone; it serves once its agent enrolls', body: s.createNodeBody, response: envelope(s.nodeItem) }),
  updateNode: defineRoute({ id: 'client.node.update', method: 'PUT', path: 'client/node', tier, permission: 'nodes.edit', tag: nodes,
    summary: "Edit a node's name, address, role, bandwidth, cache capacity or memo", body: s.updateNodeBody, response: envelope(s.nodeItem) }),
  removeNodes: defineRoute({ id: 'client.nodes.remove', method: 'DELETE', path: 'client/nodes', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Remove nodes; their credentials stop working', body: s.idsBody, response: done }),
  initialize: defineRoute({ id: 'client.nodes.initialize', method: 'POST', path: 'client/nodes/initialize', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Issue a one-time enrolment token and the install command for the edge agent', body: s.nodeParams, response: envelope(s.enrolment) }),
  deinitialize: defineRoute({ id: 'client.nodes.deinitialize', method: 'DELETE', path: 'client/nodes/initialized', tier, permission: 'nodes.edit', tag: nodes,
    summary: "De-initialise nodes: revoke their agents' credentials", body: s.idsBody, response: done }),
  nodeStatus: defineRoute({ id: 'client.node.status', method: 'PUT', path: 'client/node/status', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Pause or enable nodes', body: s.nodeStatusBody, response: done }),
  moveNodes: defineRoute({ id: 'client.node.zone', method: 'PUT', path: 'client/node/zone', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Move nodes to another zone of the client', body: s.moveNodesBody, response: done }),
  nodeMemo: defineRoute({ id: 'client.node.memo', method: 'PUT', path: 'client/node/memo', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Set the memo of nodes', body: s.memoBody, response: done }),
  nodeSystem: defineRoute({ id: 'client.node.system', method: 'GET', path: 'client/node/{id}/system', tier, permission: 'nodes.view', tag: nodes,
    summary: 'CPU, memory, disk and network as the node last reported them', params: s.nodeParams, response: envelope(s.nodeSystem) }),
  nodeCommand: defineRoute({ id: 'client.node.command', method: 'POST', path: 'client/node/{id}/command', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Queue an action for the node (restart, reload, reset, upgrade, format cache, clear cache, clear URL cache, log rotate)',
    params: s.nodeParams, body: s.nodeCommandBody, response: envelope(s.nodeCommandItem) }),
  nodeCommands: defineRoute({ id: 'client.node.commands', method: 'GET', path: 'client/node/{id}/commands', tier, permission: 'nodes.view', tag: nodes,
    summary: "The node's recent actions and their results", params: s.nodeParams, response: envelope(z.array(s.nodeCommandItem)) }),
  subNodes: defineRoute({ id: 'client.node.subNodes', method: 'GET', path: 'client/node/{id}/subNodes', tier, permission: 'nodes.view', tag: nodes,
    summary: "The node's sub nodes: further addresses of its machine that serve and resolve too", params: s.nodeParams, response: envelope(z.array(s.subNodeItem)) }),
  addSubNode: defineRoute({ id: 'client.node.subNodes.add', method: 'POST', path: 'client/node/{id}/subNodes', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Add a sub node address (unique among the addresses of the zone: 101025)', params: s.nodeParams, body: s.addSubNodeBody, response: envelope(s.subNodeItem) }),
  removeSubNodes: defineRoute({ id: 'client.node.subNodes.remove', method: 'DELETE', path: 'client/node/{id}/subNodes', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Remove sub nodes of the node', params: s.nodeParams, body: s.idsBody, response: done }),
  nodeMonitor: defineRoute({ id: 'client.node.monitor', method: 'PUT', path: 'client/node/monitor', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Set the CPU, memory and disk thresholds of nodes, and whether a breach takes them out of the DNS resolution', body: s.nodeMonitorBody, response: done }),
  nodeGeneva: defineRoute({ id: 'client.node.geneva', method: 'PUT', path: 'client/node/geneva', tier, permission: 'nodes.edit', tag: nodes,
    summary: 'Set the Geneva window of nodes (v1: 1 to 60, v2: 1)', body: s.nodeGenevaBody, response: done }),
  nodeInfo: defineRoute({ id: 'client.node.info', method: 'GET', path: 'client/node/{id}/info', tier, permission: 'nodes.view', tag: nodes,
    summary: 'The node as text/plain key=value lines', params: s.nodeParams, response: z.string() }),
  resolutions: defineRoute({ id: 'client.dns.resolutions', method: 'GET', path: 'client/dns/resolutions', tier, permission: 'lines.view', tag: 'Lines',
    summary: "What each site's CNAME resolves to on each line: the healthy addresses of its group (filters siteID, cname, line, zoneID)",
    query: s.resolutionsQuery, response: paged(s.resolutionItem) }),
} as const;
