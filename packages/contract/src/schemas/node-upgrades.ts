import { z } from 'zod';
import { pageQuery } from '../paging';
import { id, idParam } from './account';

/** Spec §4 node upgrade states. */
export const UPGRADE_STATES = ['notUpdated', 'updating', 'failed', 'complete'] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export const latestVersion = z.object({ version: z.string() });

export const upgradeBody = z.object({ ids: z.array(id).min(1).max(500) });
export const upgradeQueued = z.object({ upgrades: z.array(z.object({ nodeID: z.number().int(), upgradeID: z.number().int() })) });

export const upgradeNodesQuery = pageQuery.extend({
  zoneID: idParam.optional(),
  keyword: z.string().max(256).optional(),
});

export const upgradeNodeItem = z.object({
  id: z.number().int(),
  name: z.string(),
  ip: z.string(),
  zoneName: z.string(),
  status: z.string(),
  version: z.string().nullable(),
  latestVersion: z.string(),
  upgradeState: z.enum(UPGRADE_STATES),
  /** 0 to 100 while updating; the last upgrade's progress otherwise. */
  progress: z.number().int().min(0).max(100),
  upgradeAt: z.string().nullable(),
});

export const upgradeLogParams = z.object({ nodeID: idParam });
export const upgradeLogLine = z.object({ at: z.string(), message: z.string(), progress: z.number().int().nullable() });
export const upgradeLog = z.object({
  state: z.enum(UPGRADE_STATES),
  fromVersion: z.string().nullable(),
  toVersion: z.string().nullable(),
  progress: z.number().int().min(0).max(100),
  lines: z.array(upgradeLogLine),
});
