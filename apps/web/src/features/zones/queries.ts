import { useMutation, useQuery } from '@tanstack/react-query';
import { infraRoutes as r } from '@edgekeep/contract/routes/infra';
import type { createZoneBody, zoneItem, zoneSettings, zonesQuery } from '@edgekeep/contract/schemas/infra';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';
import { metaZonesKey } from './use-meta-zones';

export type Zone = z.output<typeof zoneItem>;
export type ZoneBody = z.input<typeof createZoneBody>;
export type ZoneSettings = z.output<typeof zoneSettings>;

/** Each zone setting under the name its path gives it (`PUT client/zone/{zoneID}/<name>`). */
const SETTING_ROUTES = {
  ports: r.zonePorts,
  'nginx/worker': r.nginxWorker,
  'nginx/http': r.nginxHttp,
  'nginx/stream': r.nginxStream,
  'nginx/custom': r.nginxCustom,
  firewall: r.zoneFirewall,
  ipset: r.zoneIpset,
  http2: r.zoneHttp2,
  http3: r.zoneHttp3,
  forceSSLRedirectCode: r.forceSSLRedirectCode,
  anticc: r.zoneAnticc,
  resource: r.zoneResource,
  invalidDomainLimitCount: r.invalidDomainLimitCount,
  tlsLimitCount: r.tlsLimitCount,
  preheatCaches: r.preheatCaches,
};
type SettingRoutes = typeof SETTING_ROUTES;
/** The body of each zone setting. */
export type ZoneSettingBodies = { [K in keyof SettingRoutes]: z.input<NonNullable<SettingRoutes[K]['body']>> };

export const zoneKeys = {
  all: ['zones'] as const,
  settings: (zoneID: number) => ['zoneSettings', zoneID] as const,
  preheat: (zoneID: number, createdAt: string | null) => ['zonePreheat', zoneID, createdAt] as const,
  subClient: (clientId: number | undefined) => ['subClientZones', clientId] as const,
};

/** The client's zones (spec §7 zones). */
export const fetchZones = (query: ListQuery) => callRoute(r.zones, { query: query as z.input<typeof zonesQuery> });

/** A zone changes the list and the zone pickers. */
const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: zoneKeys.all }), queryClient.invalidateQueries({ queryKey: metaZonesKey })]);

/** Creates a zone, or changes the one whose id is given. */
export const useSaveZone = (id?: number) =>
  useMutation({
    mutationFn: (body: ZoneBody): Promise<unknown> => (id ? callRoute(r.updateZone, { body: { ...body, id } }) : callRoute(r.createZone, { body })),
    onSuccess: refresh,
  });
export const useRemoveZone = (done: () => void) =>
  useMutation({
    mutationFn: (id: number) => callRoute(r.removeZone, { body: { id } }),
    onSuccess: () => {
      done();
      return refresh();
    },
  });

export const useZoneSettings = (zoneID: number) =>
  useQuery({ queryKey: zoneKeys.settings(zoneID), queryFn: async () => (await callRoute(r.zoneSettings, { params: { zoneID } })).data, staleTime: 0 });

/** The answer of a setting (every setting of the zone) replaces the drawer's copy, then the fixed message shows. */
const useSettingsChange = <V,>(zoneID: number, fn: (v: V) => Promise<{ data: ZoneSettings }>, message?: string) => {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: fn,
    onSuccess: ({ data }) => {
      queryClient.setQueryData(zoneKeys.settings(zoneID), data);
      toast.success(message ?? t('infra.setSuccess'));
    },
  });
};

/** Saves one zone setting. */
export const useSaveZoneSetting = <K extends keyof SettingRoutes>(zoneID: number, name: K, message?: string) =>
  // The body is that route's own body (ZoneSettingBodies[K]); the union of the routes cannot say so by itself.
  useSettingsChange(zoneID, (body: ZoneSettingBodies[K]) => callRoute(SETTING_ROUTES[name], { params: { zoneID }, body } as never), message);
/** Empties every IP set of the zone (the sets stay). */
export const useFlushIpsets = (zoneID: number) => useSettingsChange(zoneID, () => callRoute(r.flushIpset, { params: { zoneID } }));

/** The zone's last cache warm-up, polled while a node has yet to answer. */
export const usePreheatResult = (zoneID: number, createdAt: string | null) =>
  useQuery({
    queryKey: zoneKeys.preheat(zoneID, createdAt),
    queryFn: async () => (await callRoute(r.preheatResult, { params: { zoneID }, delayMs: 0 })).data,
    enabled: createdAt !== null,
    refetchInterval: (q) => (q.state.data?.nodes.some((n) => n.status === 'queued' || n.status === 'sent') ? 3000 : false),
  });

/** The zones a sub-client may use; the chosen set replaces the old one. */
export const useSubClientZones = (clientId: number | undefined) =>
  useQuery({
    queryKey: zoneKeys.subClient(clientId),
    queryFn: async () => (await callRoute(r.subClientZones, { params: { clientId: clientId! } })).data,
    enabled: clientId !== undefined,
    staleTime: 0,
  });
export const useAssignZones = () => useMutation({ mutationFn: (v: { clientId: number; zoneIDs: number[] }) => callRoute(r.assignZones, { params: { clientId: v.clientId }, body: { zoneIDs: v.zoneIDs } }) });
