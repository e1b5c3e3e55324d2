import { z } from 'zod';
import { ITEM_LIST_MAX } from '../constants';
import { anticcRule } from './acl';
import { ipEntry } from './ip-entry';
import { errorPage } from './error-page';

/** What a ray id carries after the request id, in this order: the node (`n<id>`), the site (`s<id>`), the start time (Unix seconds). */
export const RAY_PARTS = ['node', 'site', 'time'] as const;
export const DEFAULT_RAY_PARTS: (typeof RAY_PARTS)[number][] = ['node'];

/** The zone's part of the Lua data: pushed to every node of the zone, no reload. */
export const zoneData = z
  .object({
    /** Off: the access pipeline skips every firewall step (IP sets, lists, blocks, limits, WAF, anti-CC). */
    firewall: z.boolean().default(true),
    /** Every address of the zone's IP sets: its connections are dropped (444) on every site. */
    ipset: z.array(ipEntry).max(ITEM_LIST_MAX).default([]),
    /** Anti-CC for the sites without enabled rules of their own. */
    anticc: z.array(anticcRule).max(100).default([]),
    /** Requests a minute per address for a host no site serves before the address is blocked; 0: off. */
    invalidDomainLimit: z.number().int().min(0).default(0),
    /** TLS handshakes a minute per address before more are refused; 0: off. */
    tlsLimit: z.number().int().min(0).default(0),
    /** The zone owner's restricted subnets: their requests get the 929 page on every site of the node. */
    restricted: z.array(ipEntry).max(ITEM_LIST_MAX).default([]),
    /** The ray id of each request (the X-Ray-ID header, the access line's `ray`, the block pages): its parts and this node's id. */
    ray: z.object({ parts: z.array(z.enum(RAY_PARTS)).default(DEFAULT_RAY_PARTS), node: z.number().int().min(0).default(0) }).prefault({}),
    /** The zone owner's 903 error page: what the node answers when reached without a domain it serves; null: the product's page. */
    noDomainPage: errorPage.nullable().default(null),
  })
  .prefault({});
export type ZoneData = z.infer<typeof zoneData>;
