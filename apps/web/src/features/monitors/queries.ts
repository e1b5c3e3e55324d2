import { useMutation, useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { monitorGroupRoutes as g } from '@edgekeep/contract/routes/monitor-groups';
import { monitorRoutes as r } from '@edgekeep/contract/routes/monitors';
import type { monitorGroupItem, monitorItem, monitorsQuery, updateMonitorBody } from '@edgekeep/contract/schemas/monitors';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Monitor = z.output<typeof monitorItem>;
export type MonitorBody = z.input<typeof updateMonitorBody>;
export type MonitorGroup = z.output<typeof monitorGroupItem>;

export const monitorKeys = {
  all: ['monitors'] as const,
  notInit: ['monitors', 'notInit'] as const,
  meta: ['monitors', 'meta'] as const,
  groups: ['monitorGroups'] as const,
};

export const fetchMonitors = (query: ListQuery) => callRoute(r.list, { query: query as z.input<typeof monitorsQuery> });
export const fetchMonitorGroups = (query: ListQuery) => callRoute(g.list, { query: query as z.input<typeof monitorsQuery> });

/** Ordinary nodes that have no monitor yet. */
export const useUnmonitoredNodes = (enabled: boolean) =>
  useQuery({ queryKey: monitorKeys.notInit, queryFn: async () => (await callRoute(r.notInit, { query: { pageSize: MAX_PAGE_SIZE } })).data, enabled });
export const useMetaMonitors = () => useQuery({ queryKey: monitorKeys.meta, queryFn: async () => (await callRoute(r.meta)).data });

const refreshMonitors = () => queryClient.invalidateQueries({ queryKey: monitorKeys.all });
const refreshGroups = () => queryClient.invalidateQueries({ queryKey: monitorKeys.groups });

/** Starts monitoring nodes (with the default probe), or changes the probe of the monitor whose id is given. */
export const useSaveMonitor = (id?: number) =>
  useMutation({
    mutationFn: ({ nodeIDs, ...probe }: Omit<MonitorBody, 'id'> & { nodeIDs?: number[] }): Promise<unknown> =>
      id ? callRoute(r.update, { body: { ...probe, id } }) : callRoute(r.init, { body: { nodeIDs: nodeIDs ?? [] } }),
    onSuccess: refreshMonitors,
  });
/** `done` runs on success, as the list refreshes. */
export const useEnableMonitors = (done: () => void) =>
  useMutation({
    mutationFn: (body: { ids: number[]; enabled: boolean }) => callRoute(r.enable, { body }),
    onSuccess: () => {
      done();
      return refreshMonitors();
    },
  });
export const useRemoveMonitors = (done: () => void) =>
  useMutation({
    mutationFn: (ids: number[]) => callRoute(r.remove, { body: { ids } }),
    onSuccess: () => {
      done();
      return refreshMonitors();
    },
  });

type GroupValues = { name: string; memo: string; monitorIDs: number[] };

/** Saves the group, then adds and removes monitors so that it holds exactly the ones chosen. */
async function saveGroup(id: number | undefined, { monitorIDs, ...body }: GroupValues) {
  const saved = (id ? await callRoute(g.update, { body: { id, ...body } }) : await callRoute(g.create, { body })).data;
  const added = monitorIDs.filter((m) => !saved.monitorIDs.includes(m));
  const removed = saved.monitorIDs.filter((m) => !monitorIDs.includes(m));
  const params = { groupID: saved.id };
  if (added.length) await callRoute(g.addMembers, { params, body: { nodeIDs: added } });
  if (removed.length) await callRoute(g.removeMembers, { params, body: { nodeIDs: removed } });
}

export const useSaveMonitorGroup = (id?: number) => useMutation({ mutationFn: (v: GroupValues) => saveGroup(id, v), onSuccess: refreshGroups });
export const useRemoveMonitorGroups = (done: () => void) =>
  useMutation({
    mutationFn: (ids: number[]) => callRoute(g.remove, { body: { ids } }),
    onSuccess: () => {
      done();
      return refreshGroups();
    },
  });
