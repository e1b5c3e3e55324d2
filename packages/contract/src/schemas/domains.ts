import { z } from 'zod';
import { displayName } from './name';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids, timeInput } from './accounts';

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const SECOND_LEVEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const HASH_KEY = /^(\$[a-z][a-z0-9_]{0,63}|[A-Za-z0-9_.:-]){0,16}$/;
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A domain as spec §5 takes it: lower-cased, converted to ASCII (punycode), a valid hostname with an optional
 * leading wildcard; underscores are allowed except in the second-level label; the top-level label is 2+
 * letters or punycode.
 */
export const domainName = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform((raw, ctx) => {
    const wildcard = raw.startsWith('*.');
    const rest = wildcard ? raw.slice(2) : raw;
    let ascii: string;
    try {
      ascii = new URL(`http://${rest}`).hostname;
    } catch {
      ascii = '';
    }
    const labels = ascii.split('.');
    const ok =
      ascii !== '' &&
      !/[/:?#@\s]/.test(rest) &&
      labels.length >= 2 &&
      TOP_LEVEL.test(labels[labels.length - 1]) &&
      SECOND_LEVEL.test(labels[labels.length - 2]) &&
      labels.slice(0, -2).every((l) => LABEL.test(l));
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: 'Wrong Fromat!' });
      return z.NEVER;
    }
    return wildcard ? `*.${ascii}` : ascii;
  });

export const upstreamInput = z.object({
  host: z.union([z.ipv4(), z.ipv6(), domainName]),
  port: z.number().int().min(1).max(65535).default(80),
  weight: z.number().int().min(1).max(100).default(1),
  backup: z.boolean().default(false),
  maxFails: z.number().int().min(0).max(1000).default(1),
  failTimeout: z.number().int().min(1).max(3600).default(10),
  enabled: z.boolean().default(true),
  /** The key an IP-hash balanced domain hashes on (an nginx variable such as $remote_addr); empty: the client address. */
  hash: z.string().trim().max(TEXT_FIELD_MAX).regex(HASH_KEY, 'nginx variables such as $remote_addr').default(''),
  /** Idle connections kept open to the origins; 0 turns keepalive off. */
  keepalive: z.number().int().min(0).max(1000).default(16),
});
export const upstreamItem = z.object({
  id: z.number(),
  host: z.string(),
  port: z.number(),
  weight: z.number(),
  backup: z.boolean(),
  maxFails: z.number(),
  failTimeout: z.number(),
  enabled: z.boolean(),
  hash: z.string(),
  keepalive: z.number(),
});

export const PROTOCOLS = ['http', 'https', 'follow'] as const;
export const BALANCES = ['round_robin', 'ip_hash', 'least_conn'] as const;
export const CNAME_STATUSES = ['pending', 'active', 'inactive'] as const;
export const CERT_STATUSES = ['none', 'valid', 'expired'] as const;
const edgePort = z.number().int().min(1).max(65535);
/** Port mapping: the edge port a client used picks the origin port; a rule maps one edge port to another origin port. */
export const portMap = z.object({
  enabled: z.boolean(),
  rules: z
    .array(z.object({ listen: edgePort, originPort: edgePort }))
    .max(20)
    .refine((r) => new Set(r.map((x) => x.listen)).size === r.length, 'an edge port is mapped once')
    .default([]),
});
export const domainItem = z.object({
  id: z.number(),
  siteID: z.number(),
  name: z.string(),
  /** 1 enabled, 0 disabled. */
  status: z.union([z.literal(0), z.literal(1)]),
  protocol: z.enum(PROTOCOLS),
  forceSSL: z.boolean(),
  hsts: z.boolean(),
  tags: z.array(z.string()),
  cnameStatus: z.enum(CNAME_STATUSES),
  cnameCheckedAt: z.string().nullable(),
  autoSSL: z.boolean(),
  balance: z.enum(BALANCES),
  portMap,
  certificateID: z.number().nullable(),
  certStatus: z.enum(CERT_STATUSES),
  upstreams: z.array(upstreamItem),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const siteParams = z.object({ siteId: idParam });
export const domainParams = z.object({ siteId: idParam, domainId: idParam });
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.union([z.array(item), item.transform((v) => [v])]).optional();
const cnameStatuses = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => [v].flat().flatMap((x) => x.split(',')).filter(Boolean))
  .pipe(z.array(z.enum(CNAME_STATUSES)))
  .optional();
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);
export const domainsQuery = pageQuery.extend({
  keywords: z.string().max(TEXT_FIELD_MAX).optional(),
  tags: oneOrMany(displayName(64)),
  cnameStatuses,
  forceSSL: flag.optional(),
  certStatus: z.enum(CERT_STATUSES).optional(),
  createdStart: timeInput.optional(),
  createdEnd: timeInput.optional(),
  updatedStart: timeInput.optional(),
  updatedEnd: timeInput.optional(),
});
/** Batch input: one domain per line (spec §5), no spaces within a line. */
export const domainLines = z
  .union([z.string().max(ITEM_LIST_MAX * 256), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\S+$/, 'no spaces within a line')).min(1).max(ITEM_LIST_MAX));
export const createDomainsBody = z.object({
  domains: domainLines,
  protocol: z.enum(PROTOCOLS).default('http'),
  /** A domain needs at least one origin. */
  upstreams: z.array(upstreamInput).min(1).max(100),
});
export const updateDomainBody = z.object({
  id,
  status: z.union([z.literal(0), z.literal(1)]).optional(),
  protocol: z.enum(PROTOCOLS).optional(),
  forceSSL: z.boolean().optional(),
  hsts: z.boolean().optional(),
});
export const idsBody = z.object({ ids });
export const upstreamsQuery = pageQuery.extend({ keyword: z.string().max(TEXT_FIELD_MAX).optional() });
export const addUpstreamsBody = z.object({ upstreams: z.array(upstreamInput).min(1).max(100) });
export const updateUpstreamBody = upstreamInput.partial().extend({ id });

export const ownershipQuery = z.object({ domain: domainName });
/** The DNS TXT proof a tenant publishes to take names under a registered domain another tenant holds. */
export const ownershipItem = z.object({
  registeredDomain: z.string(),
  record: z.string(),
  token: z.string(),
  heldByOthers: z.boolean(),
  proven: z.boolean(),
});
