import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';
import { siteLimitations } from './site-actions';

/** Spec §9: continents, and the Chinese ISPs of the lookup tables; `default` answers everyone else. */
export const DNS_LINES = ['default', 'AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'telecom', 'unicom', 'mobile', 'tietong', 'edu', 'cstnet', 'domestic', 'overseas'] as const;

export const groupItem = z.object({
  id: z.number(),
  zoneID: z.number(),
  name: z.string(),
  line: z.enum(DNS_LINES),
  priority: z.number(),
  dnsResolve: z.boolean(),
  nodeIDs: z.array(z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const groupFields = {
  name: displayName(64),
  line: z.enum(DNS_LINES).default('default'),
  priority: z.number().int().min(0).max(1000).default(0),
  dnsResolve: z.boolean().default(true),
  nodeIDs: z.array(id).max(1000).default([]),
};
export const createGroupBody = z.object(groupFields);
export const updateGroupBody = z.object({
  id,
  name: groupFields.name.optional(),
  line: z.enum(DNS_LINES).optional(),
  priority: z.number().int().min(0).max(1000).optional(),
  dnsResolve: z.boolean().optional(),
  nodeIDs: z.array(id).max(1000).optional(),
});
export const groupRef = z.object({ id });
export const groupsQuery = pageQuery.pick({ page: true, pageSize: true });

export const productItem = z.object({
  id: z.number(),
  name: z.string(),
  zoneID: z.number(),
  groupID: z.number(),
  backupGroupID: z.number().nullable(),
  domainLimit: z.number(),
  siteLimit: z.number(),
  connections: z.number(),
  bandwidth: z.number(),
  trafficPrice: z.number(),
  /** GB a site may serve per calendar month (UTC); 0 = unlimited. Extra traffic plans add to it. */
  monthlyTrafficGB: z.number().default(0),
  exceedAction: z.enum(['none', 'limit', 'pause']),
  sellType: z.enum(['self', 'commercial']),
  lockDomain: z.boolean(),
  autoSSLCount: z.number(),
  accessLog: z.boolean(),
  cnameMode: z.enum(['random', 'custom']),
  expiredAt: z.string().nullable(),
  siteCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const productFields = {
  name: displayName(64),
  zoneID: id,
  groupID: id,
  backupGroupID: id.nullable().default(null),
  /** 0 means unlimited. */
  domainLimit: z.number().int().min(0).max(1_000_000).default(0),
  /** 0 means unlimited. */
  siteLimit: z.number().int().min(0).max(1_000_000).default(0),
  connections: z.number().int().min(0).max(10_000_000).default(0),
  /** Mbps; 0 means unlimited. */
  bandwidth: z.number().int().min(0).max(10_000_000).default(0),
  /** NTD per GB. */
  trafficPrice: z.number().min(0).max(1_000_000).default(0),
  /** GB a site may serve per calendar month (UTC); 0 = unlimited. */
  monthlyTrafficGB: z.number().min(0).max(1_000_000_000).default(0),
  exceedAction: z.enum(['none', 'limit', 'pause']).default('none'),
  sellType: z.enum(['self', 'commercial']).default('self'),
  lockDomain: z.boolean().default(false),
  autoSSLCount: z.number().int().min(0).max(1_000_000).default(0),
  accessLog: z.boolean().default(true),
  cnameMode: z.enum(['random', 'custom']).default('random'),
  expiredAt: z.iso.datetime({ offset: true }).nullable().default(null),
};
export const createProductBody = z.object(productFields);
type Undefaulted<T> = { [K in keyof T]: T[K] extends z.ZodDefault<infer I> ? I : T[K] };
/** The same fields without their defaults: a change names only what it changes, the rest stays as it is. */
const undefaulted = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v])) as Undefaulted<T>;
export const updateProductBody = z.object(undefaulted(productFields)).partial().extend({ id });
export const productsQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });

/** Spec §4, in that order: a site's status is the index (0 paused, 1 normal, 2 locked, 3 expired). */
export const SITE_STATUSES = ['paused', 'normal', 'locked', 'expired'] as const;
export const siteStatus = z.number().int().min(0).max(3);
export const siteItem = z.object({
  id: z.number(),
  name: z.string(),
  status: siteStatus,
  userID: z.number(),
  userEmail: z.string(),
  productID: z.number(),
  productName: z.string(),
  zoneID: z.number(),
  groupID: z.number(),
  cname: z.string(),
  tags: z.array(z.string()),
  /** Served by the product's backup group instead of its own. */
  forceBackup: z.boolean(),
  limitations: siteLimitations,
  domainCount: z.number(),
  expiredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const tag = displayName(64);
export const sitesQuery = pageQuery.extend({
  /** -1 means all. */
  status: z.coerce.number().int().min(-1).max(3).default(-1),
  siteName: z.string().max(TEXT_FIELD_MAX).optional(),
  tags: z.union([tag, z.array(tag)]).optional(),
  productID: idParam.optional(),
  userID: idParam.optional(),
});
export const createSiteBody = z.object({
  name: displayName(TEXT_FIELD_MAX),
  productID: id,
  userID: id,
  tags: z.array(tag).max(50).default([]),
  expiredAt: z.iso.datetime({ offset: true }).nullable().default(null),
});
export const updateSiteBody = z.object({ id, name: createSiteBody.shape.name.optional(), tags: z.array(tag).max(50).optional() });
export const siteStatusBody = z.object({ ids, status: siteStatus });
export const siteParams = z.object({ siteId: idParam });
export const siteTagsBody = z.object({ tags: z.array(tag).max(50) });

/** Sharing sites with sub-users, in batch. */
export const shareSitesBody = z.object({ siteIDs: ids, userIDs: ids });
export const removeSiteUsersBody = z.object({ ids, userIDs: ids });
export const siteUserItem = z.object({ id: z.number(), email: z.string(), name: z.string() });
export const userProductsQuery = pageQuery.pick({ page: true, pageSize: true }).extend({
  productIDs: z.union([idParam, z.array(idParam).max(1000)]).optional(),
});
/** What a user sees of the products its sites are made from. */
export const userProductItem = productItem.pick({
  id: true,
  name: true,
  domainLimit: true,
  siteLimit: true,
  connections: true,
  bandwidth: true,
  trafficPrice: true,
  exceedAction: true,
  autoSSLCount: true,
  accessLog: true,
  expiredAt: true,
}).extend({ siteCount: z.number() });
