import { useMetaGroups } from './queries';

/** The name of a group of a zone (the zone's groups are fetched once and shared). */
export function GroupName({ zoneID, id }: { zoneID: number; id: number | null }) {
  const groups = useMetaGroups(zoneID, id !== null);
  if (id === null) return '-';
  return groups.data?.find((g) => g.id === id)?.name ?? `#${id}`;
}
