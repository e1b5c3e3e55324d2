import { z } from 'zod';
import { displayName } from './name';
import { id } from './account';
import { ids } from './accounts';

/** Limits a site narrows from its product; absent or null means the product's value (0 = unlimited). */
export const siteLimitations = z.object({
  domainLimit: z.number().int().min(0).max(1_000_000).nullable().optional(),
  /** Mbps. */
  bandwidth: z.number().int().min(0).max(10_000_000).nullable().optional(),
  connections: z.number().int().min(0).max(10_000_000).nullable().optional(),
});
const tag = displayName(64);

export const siteUsersBody = z.object({ ids, userID: id });
export const productChangeBody = z.object({ ids, productID: id });
export const siteIdsBody = z.object({ ids });
export const limitationsBody = z.object({ ids, limitations: siteLimitations });
/** null: the site never expires. A time already past expires the site at once. */
export const expiredBody = z.object({ ids, expiredAt: z.iso.datetime({ offset: true }).nullable() });
export const forceBackupBody = z.object({ ids, enabled: z.boolean() });
export const tagsBody = z.object({ ids, tags: z.array(tag).max(50) });
/** How many nodes got the purge queued. */
export const purgeResult = z.object({ nodes: z.number() });
