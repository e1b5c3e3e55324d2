import { z } from 'zod';
import { CERT_DOMAIN_MAX } from '../constants';
import { cacheRule, errorPage } from '../edge/desired-state';
import { pageQuery } from '../paging';
import { id } from './account';
import { ids } from './accounts';

export const siteParams = z.object({ siteId: id });
export const certParams = z.object({ siteId: id, id });
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
    .pipe(z.array(z.string().max(2048).regex(/^https?:\/\/[^\s*?]+$/, 'an http(s) URL without wildcards')).min(1).max(1000)),
});
/** The purge is queued for every enrolled node of the site's zone. */
export const purgeResult = z.object({ nodes: z.number() });
