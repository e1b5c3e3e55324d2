import { z } from 'zod';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import { ipEntry } from './ip-entry';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'] as const;

/**
 * A black- or whitelist entry: an address, a CIDR block or a range, alone or with conditions. With conditions it
 * applies only to requests whose path starts with `url`, whose method is one of `methods`, arriving on `port`.
 */
export const ipListEntry = z.union([
  ipEntry,
  z.object({
    ip: ipEntry,
    url: z.string().max(TEXT_FIELD_MAX).optional(),
    methods: z.array(z.enum(HTTP_METHODS)).max(HTTP_METHODS.length).optional(),
    port: z.number().int().min(0).max(65535).optional(),
  }),
]);

const entryKey = (e: z.infer<typeof ipListEntry>) => (typeof e === 'string' ? e : JSON.stringify(e));

export const ipList = z
  .array(ipListEntry)
  .max(ITEM_LIST_MAX)
  .refine((list) => new Set(list.map(entryKey)).size === list.length, { message: 'duplicate entry' });

export type IpListEntry = z.infer<typeof ipListEntry>;
