import { z } from 'zod';
import { displayName } from './name';
import { idParam } from './account';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { PROTOCOLS } from './domains';

/** A domain of one of the client's users' sites, as the client's read-only listing shows it. */
export const clientDomainItem = z.object({
  id: z.number(),
  name: z.string(),
  /** 1 enabled, 0 disabled. */
  status: z.union([z.literal(0), z.literal(1)]),
  protocol: z.enum(PROTOCOLS),
  forceSSL: z.boolean(),
  tags: z.array(z.string()),
  siteID: z.number(),
  siteName: z.string(),
  siteStatus: z.number(),
  cname: z.string(),
  userID: z.number(),
  userEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const tag = displayName(64);
export const clientDomainsQuery = pageQuery.extend({
  keywords: z.string().max(TEXT_FIELD_MAX).optional(),
  tags: z.union([tag, z.array(tag)]).optional(),
  siteID: idParam.optional(),
  userID: idParam.optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  forceSSL: z.enum(['true', 'false']).optional(),
});
export const clientDomainMeta = z.object({ id: z.number(), name: z.string(), siteID: z.number() });
