import { useQuery } from '@tanstack/react-query';
import { infraRoutes } from '@edgekeep/contract/routes/infra';
import { callRoute } from '../../api/route-client';

export const metaZonesKey = ['metaZones'] as const;

/** Every zone of the client as select options. */
export function useZoneOptions(enabled = true) {
  const zones = useQuery({ queryKey: metaZonesKey, queryFn: async () => (await callRoute(infraRoutes.metaZones)).data, enabled });
  return (zones.data ?? []).map((z) => ({ value: z.id, label: z.name }));
}

/** The zone a per-zone screen shows: the one in the URL, else the client's only zone, else none yet. */
export function chosenZone({ zoneID, zones }: { zoneID: unknown; zones: { value: number }[] }) {
  return Number(zoneID) || (zones.length === 1 ? zones[0].value : undefined);
}
