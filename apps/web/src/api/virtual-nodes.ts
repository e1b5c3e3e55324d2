import type { virtualNodeSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from './client';
import type { Query } from './url';

export type VirtualNode = z.infer<typeof virtualNodeSchemas.virtualNodeItem>;
export type VirtualNodeBody = z.input<typeof virtualNodeSchemas.createVirtualNodeBody>;

const tier = 'client' as const;
const path = (zoneID: number) => `client/zone/${zoneID}/virtualNode`;

export const virtualNodesApi = {
  list: (zoneID: number, query: Query) => callList<VirtualNode>(`client/zone/${zoneID}/virtualNodes`, { tier, query }),
  create: (zoneID: number, body: VirtualNodeBody) => call<VirtualNode>(path(zoneID), { tier, method: 'POST', body }),
  update: (zoneID: number, body: Partial<VirtualNodeBody> & { id: number }) => call<VirtualNode>(path(zoneID), { tier, method: 'PUT', body }),
  remove: (zoneID: number, id: number) => call<unknown>(path(zoneID), { tier, method: 'DELETE', body: { id } }),
};
