import { z } from 'zod';
import { ipEntry } from './ip-entry';
import { regexProblem } from './regex-safety';

export { regexProblem } from './regex-safety';

/** Spec §3 Advanced WAF/ACL rule: the request parts a condition looks at. */
export const ACL_FIELDS = ['ip', 'referer', 'method', 'uri', 'query', 'userAgent', 'header', 'cookie', 'asn', 'country', 'frequency'] as const;
export const ACL_OPERATORS = ['eq', 'ne', 'contains', 'notContains', 'in', 'notIn', 'gt', 'lt', 'ge', 'le'] as const;
/** deny answers page 929; drop closes the connection (444); dropBlacklist also blocks the address for blockSeconds. */
export const ACL_ACTIONS = ['deny', 'drop', 'dropBlacklist', 'allow', 'redirect301', 'redirect302'] as const;
export const ACL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE'] as const;
/** Spec §4 protection modes: 1 five-second shield, 2 code, 3 click to verify, 4 redirect, 5 slider captcha. */
export const ANTICC_TYPES = [1, 2, 3, 4, 5] as const;

export type AclField = (typeof ACL_FIELDS)[number];
export type AclOperator = (typeof ACL_OPERATORS)[number];

const TEXT: AclOperator[] = ['eq', 'ne', 'contains', 'notContains', 'in', 'notIn'];
const NUMERIC: AclOperator[] = ['eq', 'ne', 'gt', 'lt', 'ge', 'le'];
/** Which operators fit which field. */
export const FIELD_OPERATORS: Record<AclField, AclOperator[]> = {
  ip: ['eq', 'ne', 'in', 'notIn'],
  referer: TEXT,
  method: ['eq', 'ne', 'in', 'notIn'],
  uri: TEXT,
  query: TEXT,
  userAgent: TEXT,
  header: TEXT,
  cookie: TEXT,
  asn: [...NUMERIC, 'in', 'notIn'],
  country: ['eq', 'ne', 'in', 'notIn'],
  frequency: NUMERIC,
};
export const LIST_OPERATORS: AclOperator[] = ['in', 'notIn'];
export const NUMERIC_FIELDS: AclField[] = ['asn', 'frequency'];
export const NAMED_FIELDS: AclField[] = ['header', 'cookie'];

export const aclCondition = z.object({
  field: z.enum(ACL_FIELDS),
  operator: z.enum(ACL_OPERATORS),
  /** The header or cookie name. */
  name: z.string().max(128).default(''),
  /** One value, or for in and not in a list of values. */
  value: z.union([z.string().max(2048), z.array(z.string().max(256)).max(1000)]),
  /** contains / not contains: the value is a regular expression rather than a substring. */
  regex: z.boolean().default(false),
  /** frequency: the window in seconds over which this address's requests are counted. */
  seconds: z.number().int().min(1).max(3600).default(60),
});
export type AclCondition = z.infer<typeof aclCondition>;

const valueOk: Partial<Record<AclField, (v: string) => boolean>> = {
  ip: (v) => ipEntry.safeParse(v).success,
  method: (v) => (ACL_METHODS as readonly string[]).includes(v),
  country: (v) => /^[A-Z]{2}$/.test(v),
  asn: (v) => /^\d{1,10}$/.test(v),
  frequency: (v) => /^\d{1,9}$/.test(v),
};

/** Why a condition cannot run as written, or undefined: the operator must fit the field and the value the operator. */
export function conditionProblem(c: AclCondition): string | undefined {
  if (!FIELD_OPERATORS[c.field].includes(c.operator)) return `the operator ${c.operator} does not fit the field ${c.field}`;
  if (NAMED_FIELDS.includes(c.field) && !/^[A-Za-z0-9_.!#$%&'*+^`|~-]+$/.test(c.name)) return `the ${c.field} condition needs a name`;
  const list = LIST_OPERATORS.includes(c.operator);
  if (list !== Array.isArray(c.value)) return list ? `the operator ${c.operator} needs a list of values` : `the operator ${c.operator} takes one value, not a list`;
  const values = [c.value].flat();
  if (list && !values.length) return `the operator ${c.operator} needs a list of values`;
  const emptyOk = (c.operator === 'eq' || c.operator === 'ne') && FIELD_OPERATORS[c.field] === TEXT;
  if (!emptyOk && values.some((v) => v.trim() === '')) return `the ${c.field} condition needs a value`;
  const check = valueOk[c.field];
  const bad = check ? values.find((v) => !check(v)) : undefined;
  if (bad !== undefined) return `"${bad}" is not a valid ${c.field} value`;
  if (c.regex && !['contains', 'notContains'].includes(c.operator)) return 'only contains and not contains take a regular expression';
  if (c.regex) {
    const problem = regexProblem(values[0]);
    if (problem) return `the regular expression is refused: ${problem}`;
  }
  return undefined;
}

const redirectUrl = z.string().max(2048).regex(/^https?:\/\/[^\s"'<>\\]+$/, 'an http:// or https:// URL');

/** One rule as the edge runs it; rules run in priority order (lowest first) and the first match acts. */
export const aclRule = z.object({
  id: z.number().int().positive(),
  logic: z.enum(['and', 'or']).default('and'),
  conditions: z.array(aclCondition).min(1).max(20),
  action: z.enum(ACL_ACTIONS),
  redirectURL: redirectUrl.or(z.literal('')).default(''),
  blockSeconds: z.number().int().min(1).max(604_800).default(3600),
});
export type AclRule = z.infer<typeof aclRule>;

/**
 * A luaAcl module as the edge runs it: its rules, for requests to the domains it is assigned to. Its id names the
 * rule that refused a request in the access log (`<module id>:<rule id>`).
 */
export const aclModule = z.object({
  id: z.number().int().positive().optional(),
  domains: z.array(z.string()).max(5000),
  rules: z.array(aclRule).max(1000),
});

/** One anti-CC rule as the edge runs it: more than `times` requests in `seconds` on a matching URL get the challenge. */
export const anticcRule = z.object({
  id: z.number().int().positive(),
  urlRegex: z.string().max(512).refine((v) => regexProblem(v) === undefined, { message: 'a regular expression that cannot backtrack without bound' }),
  seconds: z.number().int().min(1).max(3600),
  times: z.number().int().min(1).max(1_000_000),
  type: z.union(ANTICC_TYPES.map((t) => z.literal(t))),
});

/** A site's advanced firewall data, pushed with its IP lists. */
export const siteWaf = z.object({
  acl: z.array(aclModule).max(1000).default([]),
  anticc: z.array(anticcRule).max(1000).default([]),
});
export type SiteWaf = z.infer<typeof siteWaf>;
