import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';
import { ABUSE_SCORES, l4IpRule, l4LimitConn } from '../edge/firewall-data';
import { pageQuery } from '../paging';
import { id } from './account';
import { COUNTRY_CODES } from './countries';

export { COUNTRY_CODES } from './countries';

/** Inline flags PCRE takes at the start of a pattern and JavaScript does not. */
const INLINE_FLAGS = /^\(\?[imsx]+\)/;
/** A group holding a quantifier that is itself repeated: (a+)+, (\w*)*, (x+){2,} backtrack without bound. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/;

export const regexProblem = (v: string) => {
  if (NESTED_QUANTIFIER.test(v)) return 'a repeated group with a repeated part inside can backtrack without bound';
  try {
    new RegExp(v.replace(INLINE_FLAGS, ''));
    return undefined;
  } catch {
    return 'not a valid regular expression';
  }
};

/** A PCRE pattern the edge tests against the request; empty matches everything. */
export const ruleRegex = z
  .string()
  .max(TEXT_FIELD_MAX)
  .superRefine((v, ctx) => {
    const problem = regexProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const optionalRegex = ruleRegex.default('');

/** deny answers with the 929 page; drop closes the connection. */
export const blockType = z.enum(['deny', 'drop']);

export const geoFields = z.object({
  geoIDs: z.array(z.enum(COUNTRY_CODES)).min(1).max(COUNTRY_CODES.length),
  /** true: requests from these countries are blocked; false: requests from every other country are. */
  isBlack: z.boolean(),
  urlRegex: optionalRegex,
  blockType: blockType.default('deny'),
});
export const userAgentFields = z.object({ urlRegex: optionalRegex, userAgentRegex: ruleRegex.pipe(z.string().min(1)), blockType: blockType.default('deny') });
export const antiHeaderFields = z.object({
  header: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'a header name: letters, digits and dashes'),
  /** Empty: a request carrying the header at all is blocked. */
  valueRegex: optionalRegex,
  urlRegex: optionalRegex,
  blockType: blockType.default('deny'),
});
/** rate: requests a second per client address; burst: requests allowed at once above it. block: the address is blocked for 10 minutes. */
export const limitReqFields = z.object({
  urlRegex: optionalRegex,
  rate: z.number().int().min(1).max(100_000),
  burst: z.number().int().min(0).max(100_000).default(0),
  priority: z.number().int().min(0).max(10_000).default(0),
  type: z.enum(['deny', 'drop', 'block']).default('deny'),
});
/** More than `times` requests within `seconds` blocks the address for `blockSeconds`. */
export const frequencyFields = z.object({
  urlRegex: optionalRegex,
  seconds: z.number().int().min(1).max(86_400),
  times: z.number().int().min(1).max(1_000_000),
  blockSeconds: z.number().int().min(1).max(604_800).default(600),
});
/** Refuse addresses whose risk score on the node reaches `score` (see the edge's abuse step). */
export const abuseIpFields = z.object({ score: z.union(ABUSE_SCORES.map((s) => z.literal(s))) });

export const l4IpFields = l4IpRule.extend({ memo: z.string().max(TEXT_FIELD_MAX).default('') });
export const l4LimitConnFields = l4LimitConn;
/** Countries refused (isBlack) or the only ones let in (not isBlack) on a port of the site; port 0: all its L4 ports. */
export const l4PositionFields = z.object({
  geoIDs: geoFields.shape.geoIDs,
  isBlack: z.boolean(),
  port: z.number().int().min(0).max(65535).default(0),
  memo: z.string().max(TEXT_FIELD_MAX).default(''),
});

/** Every list of the firewall besides the IP lists: its plural and singular path names and its fields. */
export const RULE_KINDS = {
  geo: { plural: 'geos', singular: 'geo', fields: geoFields },
  userAgent: { plural: 'userAgents', singular: 'userAgent', fields: userAgentFields },
  antiHeader: { plural: 'antiHeaders', singular: 'antiHeader', fields: antiHeaderFields },
  limitReq: { plural: 'limitReqs', singular: 'limitReq', fields: limitReqFields },
  frequency: { plural: 'frequencies', singular: 'frequency', fields: frequencyFields },
  abuseIP: { plural: 'abuseIPs', singular: 'abuseIP', fields: abuseIpFields },
  /** Layer 4, under firewall/l4/: rendered into the site's stream servers. */
  l4Blacklist: { plural: 'l4/blacklists', singular: 'l4/blacklist', fields: l4IpFields },
  l4Whitelist: { plural: 'l4/whitelists', singular: 'l4/whitelist', fields: l4IpFields },
  l4Position: { plural: 'l4/positions', singular: 'l4/position', fields: l4PositionFields },
  l4LimitConn: { plural: 'l4/limitConns', singular: 'l4/limitConn', fields: l4LimitConnFields },
} as const;
export type RuleKind = keyof typeof RULE_KINDS;
export const RULE_KIND_NAMES = Object.keys(RULE_KINDS) as RuleKind[];

const meta = { id: z.number(), enabled: z.boolean(), createdAt: z.string() };
export const ruleItem = <F extends z.ZodObject>(fields: F) => fields.extend(meta);
export const createRuleBody = <F extends z.ZodObject>(fields: F) => fields.extend({ enabled: z.boolean().default(true) });
export const updateRuleBody = <F extends z.ZodObject>(fields: F) => fields.extend({ id, enabled: z.boolean().optional() });

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const rulesQuery = pageQuery.extend({
  enabled: flag.optional(),
  /** geo and l4Position only: black or white rules. */
  isBlack: flag.optional(),
  /** geo and l4Position only: rules naming any of these country codes (comma separated). */
  names: z.string().max(1000).optional(),
});

export const geoipItem = z.object({ id: z.string(), code: z.string() });
