import type { Dimension } from './types';

/**
 * A browser family from the User-Agent, first match wins: crawlers before browsers (they often claim to be one),
 * Edge and Opera before Chrome, Chrome before Safari (Chrome's UA names Safari too).
 */
const UA_FAMILY = `CASE
  WHEN regexp_matches(user_agent, 'bot|crawl|spider', 'i') THEN 'bot'
  WHEN contains(user_agent, 'Edg/') OR contains(user_agent, 'Edge/') THEN 'Edge'
  WHEN contains(user_agent, 'OPR/') OR contains(user_agent, 'Opera') THEN 'Opera'
  WHEN contains(user_agent, 'Chrome/') OR contains(user_agent, 'CriOS/') THEN 'Chrome'
  WHEN contains(user_agent, 'Firefox/') OR contains(user_agent, 'FxiOS/') THEN 'Firefox'
  WHEN contains(user_agent, 'Safari/') THEN 'Safari'
  WHEN starts_with(lower(user_agent), 'curl/') THEN 'curl'
  WHEN starts_with(lower(user_agent), 'wget/') THEN 'wget'
  WHEN contains(lower(user_agent), 'python') THEN 'python'
  WHEN starts_with(user_agent, 'Go-http-client') THEN 'Go'
  ELSE 'other' END`;

/**
 * Each dimension's value of a raw line, for those the dimension rollups keep. `url` is the path without the query
 * string; `refererHost` the referer's host ('' without a referer); `ipVersion` ipv6 when the client address has a colon;
 * `province` the region of a line from China (a small dimension: some 31 values).
 */
export const DIM_VALUES: Record<Exclude<Dimension, 'site' | 'domain' | 'node'>, string> = {
  status: 'status::VARCHAR',
  cacheStatus: 'cache_status',
  country: 'country',
  region: 'region',
  province: `CASE WHEN country = 'CN' THEN region ELSE '' END`,
  city: 'city',
  isp: 'isp',
  protocol: 'scheme',
  method: 'method',
  httpVersion: 'http_version',
  ipVersion: `CASE WHEN contains(client_ip, ':') THEN 'ipv6' ELSE 'ipv4' END`,
  refererHost: `lower(regexp_extract(referer, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\\[[^\\]]*\\]|[^:/?#]*)', 1))`,
  url: `split_part(uri, '?', 1)`,
  clientIp: 'client_ip',
  uaFamily: UA_FAMILY,
  blockCause: 'block_cause',
  blockRule: 'block_rule',
};

/** The dimensions that are columns of the base rollups rather than rows of the dimension rollups. */
export const BASE_KEYS: Partial<Record<Dimension, string>> = { site: 'site_id::VARCHAR', domain: 'domain', node: 'node_id::VARCHAR' };

type Keep = keyof typeof DIM_VALUES;

/**
 * Dimensions with values in the millions (addresses, paths): each has rollup tables of its own (`dim_<name>_5m`,
 * `dim_<name>_1h`, no dimension column) so that the small dimensions' table, which the cards read, stays small.
 */
export const WIDE_DIMS = ['clientIp', 'url', 'refererHost', 'region', 'city', 'isp'] as const satisfies readonly Keep[];
export const isWide = (dim: string): dim is (typeof WIDE_DIMS)[number] => (WIDE_DIMS as readonly string[]).includes(dim);

/** The rollup tables of a wide dimension, less their resolution suffix. */
export const wideRollup = (dim: (typeof WIDE_DIMS)[number]) => `dim_${dim.toLowerCase()}`;

/** The table a dimension's values are read from, and the condition picking its rows there. */
export const dimSource = (dim: Keep, resolution: string) =>
  isWide(dim) ? { table: `${wideRollup(dim)}_${resolution}`, only: 'true' } : { table: `dim_${resolution}`, only: `dim = '${dim}'` };

/** The dimensions whose values share the `dim_*` rollups. */
export const SMALL_DIMS = Object.keys(DIM_VALUES).filter((dim) => !isWide(dim)) as Keep[];
