import { z } from 'zod';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import { HTTP_METHODS } from '../edge/firewall-data';
import { ipEntry } from '../edge/ip-entry';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

export const LISTS = ['blacklist', 'whitelist'] as const;
export const siteParams = z.object({ siteId: idParam });

/** Batch input: one entry per line, no spaces within a line (spec §5), at most 5000. */
const lines = z
  .union([z.string().max(ITEM_LIST_MAX * 100), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\S+$/, 'no spaces within a line')).min(1, 'Required Field!').max(ITEM_LIST_MAX));

/**
 * A black- or whitelist rule: its addresses (an IP, a CIDR block, or on the blacklist a range `a-b`) and a memo.
 * The edge enforces the addresses for every request to the site.
 */
/** Conditions of an entry: a path prefix, request methods and a port; empty or 0 means any. */
const conditions = {
  url: z.string().max(TEXT_FIELD_MAX).regex(/^(\/\S*)?$/, 'a path beginning with /').default(''),
  methodValues: z.array(z.enum(HTTP_METHODS)).max(HTTP_METHODS.length).refine((m) => new Set(m).size === m.length, { message: 'a method twice' }).default([]),
  port: z.number().int().min(0).max(65535).default(0),
};
export const ipRuleBody = z.object({ ips: lines, memo: z.string().max(TEXT_FIELD_MAX).default(''), ...conditions });
export const updateIpRuleBody = z.object({
  id,
  ip: ipEntry,
  memo: z.string().max(TEXT_FIELD_MAX).optional(),
  enabled: z.boolean().optional(),
  url: conditions.url.optional(),
  methodValues: conditions.methodValues.optional(),
  port: conditions.port.optional(),
});
export const ipRuleItem = z.object({
  id: z.number(),
  ip: z.string(),
  memo: z.string(),
  url: z.string(),
  methodValues: z.array(z.string()),
  port: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export const ipRulesQuery = pageQuery.extend({ ip: z.string().max(100).optional() });
export const idsBody = z.object({ ids });
export const enableBody = z.object({ ids, enabled: z.boolean() });
