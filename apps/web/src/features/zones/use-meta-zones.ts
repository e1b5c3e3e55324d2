import { useQuery } from '@tanstack/react-query';
import { infraApi } from '../../api/infra';

export const metaZonesKey = ['metaZones'] as const;

/** Every zone of the client as select options. */
export function useZoneOptions() {
  const zones = useQuery({ queryKey: metaZonesKey, queryFn: infraApi.metaZones });
  return (zones.data ?? []).map((z) => ({ value: z.id, label: z.name }));
}
