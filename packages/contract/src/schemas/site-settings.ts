import { z } from 'zod';
import { CERT_DOMAIN_MAX, ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import { cacheRule, cacheSettings, errorPage, hsts, rateRule, urlPrefix } from '../edge/desired-state';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

export const siteParams = z.object({ siteId: idParam });
export const certParams = z.object({ siteId: idParam, id: idParam });
export const idsBody = z.object({ ids });

/** Spec §5: a certificate's name is at most 64 characters (301001 otherwise). */
export const certificateName = z.string().trim().min(1).max(CERT_DOMAIN_MAX);
const pem = z.string().max(65_536);
export const createCertificateBody = z.object({ name: z.string().max(1024), certificate: pem, key: pem });
export const updateCertificateBody = z.object({ id, name: z.string().max(1024).optional(), certificate: pem.optional(), key: pem.optional() });
export const bindCertificateBody = z.object({ id, domainIDs: z.array(id).max(5000) });
export const certificatesQuery = pageQuery.extend({ name: z.string().max(256).optional() });
export const CERT_STATUSES = ['valid', 'expired', 'notYetValid'] as const;
export const certificateItem = z.object({
  id: z.number(),
  name: z.string(),
  subject: z.string(),
  /** The names the certificate covers (subjectAltName DNS entries, else the subject's CN). */
  names: z.array(z.string()),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  status: z.enum(CERT_STATUSES),
  /** The site's domains that serve this certificate. */
  domains: z.array(z.object({ id: z.number(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const certificateDetail = certificateItem.extend({ certificate: z.string() });

export const cacheRuleInput = cacheRule;
export const cacheRuleItem = z.intersection(z.object({ id: z.number() }), cacheRule);
export const updateCacheRuleBody = z.intersection(z.object({ id }), cacheRule);
export const siteSettings = z.object({ cacheRules: z.array(cacheRuleItem), gzip: z.boolean() });
export const gzipBody = z.object({ enabled: z.boolean() });

export const errorPageInput = errorPage;
export const errorPageItem = z.intersection(z.object({ id: z.number(), createdAt: z.string(), updatedAt: z.string() }), errorPage);
export const updateErrorPageBody = z.intersection(z.object({ id }), errorPage);
export const errorPagesQuery = pageQuery.pick({ page: true, pageSize: true });

/**
 * Purge by URL (spec §5: type sent as a number; one URL per line; no wildcard or regex). Type 1 purges the
 * exact URLs; each must be on one of the site's domains.
 */
export const urlPurgeBody = z.object({
  type: z.literal(1),
  urls: z
    .union([z.string().max(1_000_000), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean))
    .pipe(z.array(z.string().max(2048).regex(/^https?:\/\/[^\s*?]+(\?[^\s*]*)?$/, 'an http(s) URL without wildcards')).min(1).max(1000)),
});
/** The purge is queued for every enrolled node of the site's zone. */
export const purgeResult = z.object({ nodes: z.number() });

const urlLines = (line: z.ZodString) =>
  z
    .union([z.string().max(1_000_000), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean))
    .pipe(z.array(line).min(1).max(1000));
/** Type 2 purges everything under URL prefixes (spec §5: begins with http:// or https://, ends with /). */
export const urlPrefixPurgeBody = z.object({ type: z.literal(2), urls: urlLines(urlPrefix) });
export const anyUrlPurgeBody = z.discriminatedUnion('type', [urlPurgeBody, urlPrefixPurgeBody]);

export const rateItem = z.intersection(z.object({ id: z.number() }), rateRule);
export const rateInput = rateRule;
export const updateRateBody = z.intersection(z.object({ id }), rateRule);
export const cacheSettingsBody = cacheSettings;
export const compressionBody = z.object({ enabled: z.boolean(), webp: z.boolean().optional() });
export const hstsBody = hsts;
export const bodySizeBody = z.object({ clientMaxBodySize: z.number().int().min(0).max(102_400).nullable() });
export const portsBody = z.object({ type: z.enum(['http', 'https']), ports: z.array(z.number().int().min(1).max(65535)).min(1).max(20) });

/** Everything configured for a site beyond domains, certificates and error pages. */
export const fullSettings = siteSettings.extend({
  webp: z.boolean(),
  /** defaultDirectory: what an own cache directory is when none is named. */
  cache: cacheSettings.extend({ defaultDirectory: z.string() }),
  rates: z.array(rateItem),
  hsts,
  clientMaxBodySize: z.number().nullable(),
  /** The zone's ports the site listens on. */
  httpPorts: z.array(z.number()),
  httpsPorts: z.array(z.number()),
  /** Whether any domain of the site serves HTTPS (has a certificate): HSTS does nothing without it. */
  httpsEnabled: z.boolean(),
});
/** HSTS answers a warning when no domain of the site serves HTTPS. */
export const hstsResult = fullSettings.extend({ warning: z.enum(['httpsDisabled']).nullable() });
export const settingExists = z.object({
  cacheRules: z.boolean(),
  rates: z.boolean(),
  errorPages: z.boolean(),
  dnsRecords: z.boolean(),
  hsts: z.boolean(),
  gzip: z.boolean(),
});
export const zonePort = z.object({ port: z.number(), enabled: z.boolean() });
export const zonePorts = z.object({ httpPorts: z.array(zonePort), httpsPorts: z.array(zonePort) });

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX'] as const;
const recordName = z.string().trim().toLowerCase().regex(/^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*)$/, 'a host label, @ or *');
const hostValue = z.string().trim().toLowerCase().regex(/^([a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/, 'a hostname');
const dnsFields = z.object({
  name: recordName,
  type: z.enum(DNS_RECORD_TYPES),
  value: z.string().trim().min(1).max(TEXT_FIELD_MAX),
  ttl: z.number().int().min(60).max(86_400).default(600),
  domainIDs: z.array(id).max(ITEM_LIST_MAX).default([]),
  memo: z.string().max(TEXT_FIELD_MAX).default(''),
});
const valueMatchesType = (r: { type: string; value: string }) => {
  if (r.type === 'A') return z.ipv4().safeParse(r.value).success;
  if (r.type === 'AAAA') return z.ipv6().safeParse(r.value).success;
  if (r.type === 'CNAME') return hostValue.safeParse(r.value).success;
  if (r.type === 'MX') return /^\d{1,5} \S+$/.test(r.value) && hostValue.safeParse(r.value.split(' ')[1]).success;
  return r.value.length <= 255;
};
const typedValue = { message: 'a value of the record type (A: IPv4, AAAA: IPv6, CNAME: hostname, MX: "priority host", TXT: 255 characters)', path: ['value'] };
export const dnsRecordInput = dnsFields.refine(valueMatchesType, typedValue);
export const updateDnsRecordBody = dnsFields.extend({ id }).refine(valueMatchesType, typedValue);
export const dnsRecordItem = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(DNS_RECORD_TYPES),
  value: z.string(),
  ttl: z.number(),
  domainIDs: z.array(z.number()),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const dnsQuery = pageQuery.pick({ page: true, pageSize: true }).extend({ keyword: z.string().max(TEXT_FIELD_MAX).optional() });
export const dnsParams = z.object({ siteId: idParam, dnsID: idParam });
export const dnsDomains = z.array(z.object({ id: z.number(), name: z.string() }));

/** Spec §4 cache task types: warm (fetch the URLs through every node) or clear. */
/** noNodes: the zone had no enrolled node to run the task when it was made. */
export const CACHE_TASK_STATUSES = ['queued', 'running', 'done', 'failed', 'noNodes'] as const;
export const cacheTaskBody = z.object({ type: z.literal('warm'), urls: urlLines(z.string().max(2048).regex(/^https?:\/\/[^\s*?]+(\?\S*)?$/, 'an http(s) URL without wildcards')) });
export const cacheTaskItem = z.object({
  id: z.number(),
  type: z.enum(['warm', 'clear']),
  urls: z.array(z.string()),
  status: z.enum(CACHE_TASK_STATUSES),
  nodes: z.number(),
  finishedNodes: z.number(),
  messages: z.array(z.string()),
  createdAt: z.string(),
});
export const cacheTasksQuery = pageQuery.pick({ page: true, pageSize: true });
