import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';

const port = z.number().int().min(1).max(65535);

/** Spec §5 URL prefix: begins with http:// or https:// and ends with /; no wildcard or regex. */
export const urlPrefix = z
  .string()
  .max(TEXT_FIELD_MAX)
  // Quotes, backslashes, braces, semicolons and $ would end or change the nginx string the prefix is put in.
  .regex(/^https?:\/\/[^\s/*?"'`\\{};$]+\/([^\s*?"'`\\{};$]*\/)?$/, 'begins with http:// or https:// and ends with /');

/** HSTS: sent on HTTPS answers only. */
export const hsts = z.object({
  enabled: z.boolean().default(false),
  /** Seconds; two years at most. */
  maxAge: z.number().int().min(0).max(63_072_000).default(31_536_000),
  includeSubDomains: z.boolean().default(false),
  preload: z.boolean().default(false),
});

/** Spec: rate rule, URL and rate in K/s; answers under the URL prefix are sent no faster than that. */
export const rateRule = z.object({ url: urlPrefix, rate: z.number().int().min(1).max(10_000_000) });

/** Spec §9: the web server's cache folder; a site's own cache directory lies under it. */
export const SITE_CACHE_ROOT = '/var/cache/nginx/edgekeep';
export const CACHE_DIRECTORY_MAX = 200;
/** The directory a site's own cache gets when none is named: one per site under the cache folder. */
export const defaultCacheDirectory = (siteId: number) => `${SITE_CACHE_ROOT}/site-${siteId}`;

/** An absolute path nginx can take unquoted: letters, digits, `.`, `_` and `-` between slashes, no `.` or `..` step. */
export const cacheDirectory = z
  .string()
  .trim()
  .max(CACHE_DIRECTORY_MAX)
  .regex(/^(\/[A-Za-z0-9._-]+)+\/?$/, 'an absolute path of letters, digits, ".", "_" and "-"')
  .refine((p) => p.split('/').every((step) => step !== '.' && step !== '..'), { message: 'no "." or ".." steps' })
  .transform((p) => p.replace(/\/$/, ''));

/** How the edge keys its cache for a site, and where it keeps it. */
export const cacheSettings = z.object({
  /** Key on the path only: `/a.css?v=1` and `/a.css?v=2` are one cached copy. */
  ignoreQuery: z.boolean().default(false),
  /** The site's own cache directory (a cache zone of its own); null keeps its answers in the node's shared cache. */
  directory: cacheDirectory.nullable().default(null),
});

/** The per-site options beyond domains, cache rules and error pages. */
export const siteOptions = z.object({
  hsts: hsts.prefault({}),
  /** MB; 0 turns the check off; null takes the zone's setting. */
  clientMaxBodySize: z.number().int().min(0).max(102_400).nullable().default(null),
  /** Image answers are cached apart for clients that accept image/webp, so an origin's webp variant is kept. */
  webp: z.boolean().default(false),
  rateRules: z.array(rateRule).max(100).default([]),
  cache: cacheSettings.prefault({}),
  /** The zone's ports the site listens on; null means all of them. */
  httpPorts: z.array(port).max(20).nullable().default(null),
  httpsPorts: z.array(port).max(20).nullable().default(null),
});

export type Hsts = z.infer<typeof hsts>;
export type RateRule = z.infer<typeof rateRule>;
export type SiteOptions = z.infer<typeof siteOptions>;
