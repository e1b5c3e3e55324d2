import { z } from 'zod';
import { pageQuery } from '../paging';

/** §4: an auto certificate is pending (auto SSL on, nothing ordered yet), processing, completed or failed. */
export const AUTO_CERT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const autoCertStatus = z.enum(AUTO_CERT_STATUSES);
export type AutoCertStatus = z.infer<typeof autoCertStatus>;

/**
 * §8's hints when an auto certificate fails, each a locale key on the console: the CNAME does not point at the
 * platform, overseas resolution is missing, the DNS answer is still cached (wait for the TTL), a wildcard needs DNS
 * validation, the 50-per-registered-domain-per-7-days budget is spent; `ca`: the CA refused (its error is shown).
 */
export const AUTO_CERT_HINTS = ['cname', 'overseas', 'ttl', 'wildcardDns', 'budget', 'ca'] as const;
export const autoCertHint = z.enum(AUTO_CERT_HINTS);

export const autoCertificate = z.object({
  id: z.number().int(),
  domainId: z.number().int(),
  domainName: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  status: autoCertStatus,
  challenge: z.enum(['http-01', 'dns-01']),
  certificateId: z.number().int().nullable(),
  notAfter: z.string().nullable(),
  /** When the next renewal is due (30 days before expiry, or the CA's renewal window). */
  renewAt: z.string().nullable(),
  /** When the queue next works on it (a retry after a failure backs off). */
  nextAttemptAt: z.string(),
  attempts: z.number().int(),
  /** The CA's own error of the last failure. */
  error: z.string().nullable(),
  hint: autoCertHint.nullable(),
  /** Certificates issued for the registered domain in the last 7 days, of the provider's 50. */
  budget: z.object({ registeredDomain: z.string(), used: z.number().int(), limit: z.number().int() }),
  updatedAt: z.string(),
});
export type AutoCertificate = z.infer<typeof autoCertificate>;

export const autoCertificatesQuery = pageQuery.extend({
  keyword: z.string().max(253).optional(),
  status: autoCertStatus.optional(),
});

/** Reapply: one id or a batch. */
export const renewBody = z.object({ ids: z.array(z.number().int().min(1)).min(1).max(500) });

/** The auto-SSL state of a site's domains, for the user's domain and certificate lists. */
export const siteAutoCertificate = autoCertificate.pick({ domainId: true, domainName: true, status: true, certificateId: true, notAfter: true, renewAt: true, error: true, hint: true });

export const PROVIDERS = ['letsEncrypt', 'letsEncryptStaging', 'zeroSSL', 'googleTrust', 'custom'] as const;
export const provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof provider>;

/** The directory of each named CA; `custom` names its own. */
export const PROVIDER_DIRECTORIES: Record<Exclude<Provider, 'custom'>, string> = {
  letsEncrypt: 'https://acme-v02.api.letsencrypt.org/directory',
  letsEncryptStaging: 'https://acme-staging-v02.api.letsencrypt.org/directory',
  zeroSSL: 'https://acme.zerossl.com/v2/DV90',
  googleTrust: 'https://dv.acme-v02.api.pki.goog/directory',
};

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const eabKid = z.string().trim().min(1).max(256);
const eabHmacKey = z.string().trim().regex(/^[A-Za-z0-9_=-]{16,512}$/, 'base64url');

/** setting/system/zeroSSL: the certificate-provider environment (CA choice, custom directory and its CA bundle, ZeroSSL's EAB). */
export const providerSettingBody = z
  .object({
    provider,
    directoryUrl: z.url({ protocol: /^https$/ }).max(512).optional(),
    caBundle: z.string().max(65_536).regex(PEM_CERT, 'a PEM certificate').nullable().optional(),
    email: z.email().max(256).nullable().optional(),
    eabKid: eabKid.optional(),
    /** Write-only; left out keeps the stored one. */
    eabHmacKey: eabHmacKey.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.provider === 'custom' && !b.directoryUrl) ctx.addIssue({ code: 'custom', path: ['directoryUrl'], message: 'a custom provider needs its directory URL' });
    if ((b.eabKid === undefined) !== (b.eabHmacKey === undefined)) ctx.addIssue({ code: 'custom', path: [b.eabKid ? 'eabHmacKey' : 'eabKid'], message: 'the EAB key id comes with its HMAC key' });
  });

export const providerSetting = z.object({
  provider,
  directoryUrl: z.string(),
  caBundle: z.string().nullable(),
  email: z.string().nullable(),
  eabKid: z.string().nullable(),
  /** Whether an EAB HMAC key is stored (it is never answered). */
  eabSet: z.boolean(),
  /** Whether the ACME account is registered with the current directory. */
  accountRegistered: z.boolean(),
});

/** setting/system/googleTrust: Google Trust Services' external account binding (null clears it). */
export const googleTrustBody = z.object({ eabKid: eabKid.nullable(), eabHmacKey: eabHmacKey.optional() }).superRefine((b, ctx) => {
  if (b.eabKid !== null && b.eabHmacKey === undefined) ctx.addIssue({ code: 'custom', path: ['eabHmacKey'], message: 'the EAB key id comes with its HMAC key' });
});
export const googleTrustSetting = z.object({ eabKid: z.string().nullable(), eabSet: z.boolean() });
