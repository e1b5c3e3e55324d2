import { useQuery } from '@tanstack/react-query';
import { infraApi } from '../../api/infra';

/** The name of a group of a zone (the zone's groups are fetched once and shared). */
export function GroupName({ zoneID, id }: { zoneID: number; id: number | null }) {
  const groups = useQuery({ queryKey: ['metaGroups', zoneID], queryFn: () => infraApi.metaGroups(zoneID), enabled: id !== null });
  if (id === null) return '-';
  return groups.data?.find((g) => g.id === id)?.name ?? `#${id}`;
}
