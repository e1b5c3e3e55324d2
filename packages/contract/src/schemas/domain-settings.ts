import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id } from './account';
import { ids } from './accounts';
import { BALANCES, CERT_STATUSES, CNAME_STATUSES, PROTOCOLS, domainLines, domainName, portMap, upstreamInput } from './domains';

const tag = displayName(64);

export const metaDomainsQuery = z.object({ keyword: z.string().max(TEXT_FIELD_MAX).optional() });
export const metaDomain = z.object({ id: z.number(), name: z.string() });

/** An origin written as `host` or `host:port` (IPv6 as `[addr]:port`). */
const originLine = z.string().transform((line, ctx) => {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(line) ?? /^([^:]+)(?::(\d+))?$/.exec(line);
  const parsed = m ? upstreamInput.safeParse({ host: m[1], ...(m[2] ? { port: Number(m[2]) } : {}) }) : undefined;
  if (!parsed?.success) {
    ctx.addIssue({ code: 'custom', message: 'Wrong Fromat!' });
    return z.NEVER;
  }
  return parsed.data;
});
/** Domains and their origins, both one per line. */
export const simpleDomainsBody = z.object({
  domains: domainLines,
  upstreams: domainLines.pipe(z.array(originLine).min(1).max(100)),
});
export const namesBody = z.object({ names: z.array(domainName).min(1).max(500) });
export const optionalIdsBody = z.object({ ids: ids.optional() });
export const cnameCheck = z.object({ id: z.number(), name: z.string(), cnameStatus: z.enum(CNAME_STATUSES), records: z.array(z.string()) });
export const modifyUpstreamIPsBody = z.object({
  ids,
  oldHost: upstreamInput.shape.host,
  newHost: upstreamInput.shape.host,
});
export const exportBody = z.object({ ids });
/** Copies keep their origins; they start disabled unless `enabled` (then an enabled twin anywhere refuses: 401001). */
export const copyToSiteBody = z.object({ ids, targetSiteID: id, enabled: z.boolean().default(false) });
export const createFromBody = z.object({ sourceSiteID: id, ids, enabled: z.boolean().default(false) });
export const batchUpstreamsBody = z.object({ ids, upstreams: z.array(upstreamInput).min(1).max(100) });

export const siteTags = z.array(z.string());
export const domainTagsBody = z.object({ ids, tags: z.array(tag).max(50) });
export const domainStatusBody = z.object({ ids, status: z.union([z.literal(0), z.literal(1)]) });
export const autoSSLBody = z.object({ ids, autoSSL: z.boolean() });
export const balanceBody = z.object({ ids, balance: z.enum(BALANCES) });
export const forceSSLBody = z.object({ ids, forceSSL: z.boolean() });
export const settingsQuery = pageQuery.extend({ domainName: z.string().max(TEXT_FIELD_MAX).optional() });
export const domainSetting = z.object({
  id: z.number(),
  name: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
  scheme: z.enum(PROTOCOLS),
  portMap,
  forceSSL: z.boolean(),
  hsts: z.boolean(),
  autoSSL: z.boolean(),
  balance: z.enum(BALANCES),
  certStatus: z.enum(CERT_STATUSES),
  tags: z.array(z.string()),
});
export const schemeBody = z.object({ scheme: z.enum(PROTOCOLS), portMap: portMap.optional() });
