import * as s from '../schemas/virtual-nodes';
import { zoneParams } from '../schemas/infra';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const tag = 'Virtual nodes';

export const virtualNodeRoutes = {
  list: defineRoute({ id: 'client.zone.virtualNodes', method: 'GET', path: 'client/zone/{zoneID}/virtualNodes', tier, permission: 'nodes.view', tag,
    summary: "The zone's virtual nodes with their records", params: zoneParams, query: s.virtualNodesQuery, response: paged(s.virtualNodeItem) }),
  create: defineRoute({ id: 'client.zone.virtualNode.create', method: 'POST', path: 'client/zone/{zoneID}/virtualNode', tier, permission: 'nodes.edit', tag,
    summary: 'Create a virtual node (uid v-…) answering with CNAME or IP records, switching between them', params: zoneParams, body: s.createVirtualNodeBody, response: envelope(s.virtualNodeItem) }),
  update: defineRoute({ id: 'client.zone.virtualNode.update', method: 'PUT', path: 'client/zone/{zoneID}/virtualNode', tier, permission: 'nodes.edit', tag,
    summary: "Change a virtual node's name, interval, records (replaces them) or memo", params: zoneParams, body: s.updateVirtualNodeBody, response: envelope(s.virtualNodeItem) }),
  remove: defineRoute({ id: 'client.zone.virtualNode.remove', method: 'DELETE', path: 'client/zone/{zoneID}/virtualNode', tier, permission: 'nodes.edit', tag,
    summary: 'Remove a virtual node no resolution group holds (206001)', params: zoneParams, body: s.virtualNodeRef, response: done }),
} as const;
