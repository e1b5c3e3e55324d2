import { useMutation, useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, NODE_INFO_REFRESH_MS } from '@edgekeep/contract/constants';
import { infraRoutes as r } from '@edgekeep/contract/routes/infra';
import type { createNodeBody, nodeCommandBody, nodeCommandItem, nodeGenevaBody, nodeItem, nodeMonitorBody, nodesQuery, subNodeItem, updateNodeBody } from '@edgekeep/contract/schemas/infra';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Node = z.output<typeof nodeItem>;
export type NodeBody = z.input<typeof createNodeBody>;
export type NodeStatus = Node['status'];
export type NodeMonitor = Node['monitor'];
export type NodeGeneva = Node['geneva'];
export type NodeCommand = z.output<typeof nodeCommandItem>;
export type CommandKind = NodeCommand['kind'];
export type SubNode = z.output<typeof subNodeItem>;
type Ids = number[];

export const nodeKeys = {
  all: ['nodes'] as const,
  ofZone: (zoneID: number | undefined) => ['nodes', 'ofZone', zoneID] as const,
  system: (id: number) => ['nodeSystem', id] as const,
  commands: (id: number) => ['nodeCommands', id] as const,
  subNodes: (id: number) => ['subNodes', id] as const,
};

/** The client's nodes (spec §7 nodes). */
export const fetchNodes = (query: ListQuery) => callRoute(r.nodes, { query: query as z.input<typeof nodesQuery> });

/** Every node of a zone, for the pickers of the zone's groups and virtual nodes. */
export const useZoneNodes = (zoneID: number | undefined) =>
  useQuery({
    queryKey: nodeKeys.ofZone(zoneID),
    queryFn: async () => (await callRoute(r.nodes, { query: { zoneID: String(zoneID), pageSize: MAX_PAGE_SIZE } })).data,
    enabled: zoneID !== undefined,
  });

export const nodeCalls = {
  create: (body: NodeBody) => callRoute(r.createNode, { body }),
  update: (body: z.input<typeof updateNodeBody>) => callRoute(r.updateNode, { body }),
  remove: (ids: Ids) => callRoute(r.removeNodes, { body: { ids } }),
  deinitialize: (ids: Ids) => callRoute(r.deinitialize, { body: { ids } }),
  setEnabled: (body: { ids: Ids; enabled: boolean }) => callRoute(r.nodeStatus, { body }),
  move: (ids: Ids, zoneID: number) => callRoute(r.moveNodes, { body: { ids, zoneID } }),
  setMemo: (ids: Ids, memo: string) => callRoute(r.nodeMemo, { body: { ids, memo } }),
  setMonitor: (ids: Ids, monitor: Omit<z.input<typeof nodeMonitorBody>, 'ids'>) => callRoute(r.nodeMonitor, { body: { ids, ...monitor } }),
  setGeneva: (ids: Ids, geneva: Omit<z.input<typeof nodeGenevaBody>, 'ids'>) => callRoute(r.nodeGeneva, { body: { ids, ...geneva } }),
  /** The node's details as text, to paste elsewhere. */
  info: (id: number) => callRoute(r.nodeInfo, { params: { id } }),
  command: (id: number, body: z.input<typeof nodeCommandBody>) => callRoute(r.nodeCommand, { params: { id }, body }),
  addSubNode: (id: number, body: { ip: string; memo?: string }) => callRoute(r.addSubNode, { params: { id }, body }),
  removeSubNodes: (id: number, ids: Ids) => callRoute(r.removeSubNodes, { params: { id }, body: { ids } }),
};

const refreshNodes = () => queryClient.invalidateQueries({ queryKey: nodeKeys.all });

/** A change to the nodes: `done` runs on success, as the node lists refresh. */
export const useNodesChange = <V, R>(fn: (v: V) => Promise<R>, done: (result: R) => void) =>
  useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      done(result);
      return refreshNodes();
    },
  });

/** Issues a one-time enrolment token for the node (the node's state changes with it). */
export const useIssueEnrolment = (id: number, done: () => void, failed: () => void) =>
  useMutation({
    mutationFn: async () => (await callRoute(r.initialize, { body: { id } })).data,
    onSuccess: () => {
      done();
      return refreshNodes();
    },
    onError: failed,
  });

/** What the node last reported about its machine, polled while shown. */
export const useNodeSystem = (id: number) =>
  useQuery({ queryKey: nodeKeys.system(id), queryFn: async () => (await callRoute(r.nodeSystem, { params: { id }, delayMs: 0 })).data, refetchInterval: NODE_INFO_REFRESH_MS, staleTime: 0 });
/** The node's recent actions and their results, polled while shown. */
export const useNodeCommands = (id: number) =>
  useQuery({ queryKey: nodeKeys.commands(id), queryFn: async () => (await callRoute(r.nodeCommands, { params: { id }, delayMs: 0 })).data, refetchInterval: NODE_INFO_REFRESH_MS, staleTime: 0 });
export const useSubNodes = (id: number) => useQuery({ queryKey: nodeKeys.subNodes(id), queryFn: async () => (await callRoute(r.subNodes, { params: { id } })).data });
