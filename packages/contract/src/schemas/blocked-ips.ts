import { z } from 'zod';
import { pageQuery } from '../paging';
import { id, idParam } from './account';

/** An address an edge rule blocked for a while (drop with blacklist, anti-CC failure, rate limit, frequency…). */
export const blockedIpItem = z.object({
  siteID: z.number(),
  siteName: z.string(),
  ip: z.string(),
  /** What blocked it: waf, anticc, limit, frequency… as the edge logged it. */
  cause: z.string(),
  /** When the block lapses by itself (ISO time). */
  expiresAt: z.string(),
  /** How many edge nodes hold the block. */
  nodes: z.number(),
});
const commaList = z.string().max(20_000).optional();
export const blockedIpsQuery = pageQuery.extend({ ips: commaList, causes: commaList });
export const userBlockedIpsQuery = blockedIpsQuery.extend({ siteID: idParam.optional(), zoneID: idParam.optional() });
const ip = z.string().min(1).max(64);
export const unblockBody = z.object({ ips: z.array(ip).min(1).max(5000) });
export const userUnblockBody = z.object({ blocks: z.array(z.object({ siteID: id, ip })).min(1).max(5000) });
/** Unblock all: on every site the client reaches, or only on one site or on the sites of one zone. */
export const clientUnblockAllBody = z.object({ siteID: id.optional(), zoneID: id.optional() });
