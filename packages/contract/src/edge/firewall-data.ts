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

const regex = z.string().max(TEXT_FIELD_MAX).default('');
const ruleId = z.number().int().positive();
/** How a matching rule answers: deny shows the 929 page, drop closes the connection (logged as 444). */
export const blockType = z.enum(['deny', 'drop']);

export const geoRule = z.object({
  countries: z.array(z.string().regex(/^[A-Z]{2}$/)).min(1).max(300),
  /** true: block these countries; false: block every other country. */
  isBlack: z.boolean(),
  urlRegex: regex,
  blockType: blockType.default('deny'),
});
export const userAgentRule = z.object({ urlRegex: regex, userAgentRegex: z.string().min(1).max(TEXT_FIELD_MAX), blockType: blockType.default('deny') });
export const antiHeaderRule = z.object({
  header: z.string().regex(/^[A-Za-z0-9-]{1,100}$/),
  valueRegex: regex,
  urlRegex: regex,
  blockType: blockType.default('deny'),
});
/** A token bucket per client address: burst requests at once, refilled at rate a second. block: the address is blocked for 10 minutes. */
export const limitReqRule = z.object({
  id: ruleId,
  urlRegex: regex,
  rate: z.number().positive().max(100_000),
  burst: z.number().int().min(0).max(100_000),
  priority: z.number().int().min(0).max(10_000).default(0),
  type: z.enum(['deny', 'drop', 'block']).default('deny'),
});
/** More than times requests within seconds blocks the address for blockSeconds. */
export const frequencyRule = z.object({
  id: ruleId,
  urlRegex: regex,
  seconds: z.number().int().min(1).max(86_400),
  times: z.number().int().min(1).max(1_000_000),
  blockSeconds: z.number().int().min(1).max(604_800).default(600),
});
export const ABUSE_SCORES = [25, 50, 75, 100] as const;
export const abuseIpRule = z.object({ score: z.union(ABUSE_SCORES.map((s) => z.literal(s))) });

/** The rule kinds of a site's data document besides the IP lists; the Lua access steps read them by these names. */
export const firewallSiteData = {
  geo: z.array(geoRule).max(ITEM_LIST_MAX).optional(),
  userAgents: z.array(userAgentRule).max(ITEM_LIST_MAX).optional(),
  antiHeaders: z.array(antiHeaderRule).max(ITEM_LIST_MAX).optional(),
  limitReqs: z.array(limitReqRule).max(ITEM_LIST_MAX).optional(),
  frequencies: z.array(frequencyRule).max(ITEM_LIST_MAX).optional(),
  abuseIP: abuseIpRule.optional(),
  /** The site's advanced WAF/ACL rules are switched on (PUT firewall/setting/advance). */
  advance: z.boolean().optional(),
  /**
   * Blocks lifted from the console (the last week of them): each removes the site's blocks of `ip` (every block
   * without one) made before `at` (epoch seconds). Applying one again changes nothing.
   */
  unblocks: z.array(z.object({ ip: z.string().max(64).optional(), at: z.number().int() })).max(ITEM_LIST_MAX).optional(),
};

/** An address or a CIDR block (nginx's stream access module takes no ranges). */
const l4Address = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
/** port 0: every L4 port of the site. */
export const l4IpRule = z.object({ ip: l4Address, port: z.number().int().min(0).max(65535).default(0) });
/** At most max + burst connections at once per client address on the port (nginx limit_conn); delay is kept for the console. */
export const l4LimitConn = z.object({
  port: z.number().int().min(1).max(65535),
  max: z.number().int().min(1).max(100_000),
  burst: z.number().int().min(0).max(100_000).default(0),
  delay: z.number().int().min(0).max(3600).default(0),
});
/**
 * A layer-4 region rule: connections from these countries (isBlack) or from every other country (not isBlack) are
 * refused on the port; port 0: every L4 port of the site. A client whose country is unknown counts as another country.
 */
export const l4Position = z.object({
  countries: z.array(z.string().regex(/^[A-Z]{2}$/)).min(1).max(300),
  isBlack: z.boolean(),
  port: z.number().int().min(0).max(65535).default(0),
});
/** A site's layer-4 firewall: rendered into its stream servers (structure, needs a reload). */
export const l4Firewall = z
  .object({
    blacklist: z.array(l4IpRule).max(ITEM_LIST_MAX).default([]),
    whitelist: z.array(l4IpRule).max(ITEM_LIST_MAX).default([]),
    positions: z.array(l4Position).max(ITEM_LIST_MAX).default([]),
    limitConns: z.array(l4LimitConn).max(1000).default([]),
    /** The site's connection limitation: its connections at once across all its L4 ports on the node; absent: unlimited. */
    connections: z.number().int().min(1).optional(),
  })
  .prefault({});
export type L4Firewall = z.infer<typeof l4Firewall>;
export type L4Position = z.infer<typeof l4Position>;
