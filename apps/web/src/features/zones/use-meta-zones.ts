import { useQuery } from '@tanstack/react-query';
import { infraApi } from '../../api/infra';

export const metaZonesKey = ['metaZones'] as const;

/** Every zone of the client as select options. */
export function useZoneOptions() {
  const zones = useQuery({ queryKey: metaZonesKey, queryFn: infraApi.metaZones });
  return (zones.data ?? []).map((z) => ({ value: z.id, label: z.name }));
}

/** The zone a per-zone screen shows: the one in the URL, else the client's only zone, else none yet. */
export function chosenZone({ zoneID, zones }: { zoneID: unknown; zones: { value: number }[] }) {
  return Number(zoneID) || (zones.length === 1 ? zones[0].value : undefined);
}
