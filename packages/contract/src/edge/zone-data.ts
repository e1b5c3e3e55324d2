import { z } from 'zod';
import { ITEM_LIST_MAX } from '../constants';
import { anticcRule } from './acl';
import { ipEntry } from './ip-entry';

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
  })
  .prefault({});
export type ZoneData = z.infer<typeof zoneData>;
