import { systemSettingSchemas as s, type edge } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import type { Db } from '../../db';
import { zoneOwnerId } from '../zones/repo';
import { storedSetting } from './service';

/**
 * The zone owner's settings the Lua runtime enforces, with no reload: its restricted subnets (refused with 929 on
 * every site) and the parts of its ray ids, with this node's id for them.
 */
async function edgeSystemSettings(db: Db, zoneId: number, nodeId: number): Promise<Pick<edge.ZoneData, 'restricted' | 'ray'>> {
  const owner = await zoneOwnerId(db, zoneId);
  return {
    restricted: (await storedSetting(db, owner, 'restrictGroupCIDRs'))?.value.cidrs ?? [],
    ray: { parts: (await storedSetting(db, owner, 'CDNRayLog'))?.value.logParts ?? [...s.DEFAULT_LOG_PARTS], node: nodeId },
  };
}

export const systemSettingsEdge: EdgeFeature = {
  name: 'system settings',
  zone: async ({ deps, zone }) => ({ data: await edgeSystemSettings(deps.db, zone.id, zone.node_id) }),
};
