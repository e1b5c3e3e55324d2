import { z } from 'zod';
import { REDIRECT_RULE_MAX, TEXT_FIELD_MAX } from '../constants';

/** An HTTP header name (RFC 9110 token). */
export const headerName = z.string().min(1).max(128).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Wrong Fromat!');
/** A header value: printable, no line breaks. */
export const headerValue = z.string().max(TEXT_FIELD_MAX).regex(/^[^\r\n\0]*$/, 'Wrong Fromat!');

/** Compiles where JavaScript can and refuses patterns that nest quantifiers (they can backtrack without bound). */
export const safeRegex = z
  .string()
  .min(1)
  .max(TEXT_FIELD_MAX)
  .refine((v) => {
    try {
      new RegExp(v);
    } catch {
      return false;
    }
    return !/\([^)]*[+*][^)]*\)[+*{]/.test(v);
  }, 'Wrong Fromat!');

/** Spec: custom header. request: sent to the origin; response: sent to the visitor. remove drops the header. */
export const customHeader = z.object({
  type: z.enum(['request', 'response']),
  action: z.enum(['set', 'remove']),
  name: headerName,
  value: headerValue.default(''),
});

/** Spec: URL redirect. exact and prefix match the path; regex matches it with captures ($1) usable in target. */
export const redirectRule = z
  .object({
    match: z.enum(['exact', 'prefix', 'regex']),
    source: z.string().min(1).max(TEXT_FIELD_MAX),
    /** A path on the same host or an absolute http(s) URL. */
    target: z.string().min(1).max(TEXT_FIELD_MAX).regex(/^(\/|https?:\/\/)[^\s"'\\]*$/, 'Wrong Fromat!'),
    code: z.union([z.literal(301), z.literal(302)]),
    /** Carry the request's query string over to the target. */
    keepQuery: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    if (r.match === 'regex' ? !safeRegex.safeParse(r.source).success : !/^\/[^\s]*$/.test(r.source)) {
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'Wrong Fromat!' });
    }
  });

/** Spec §5: the allowed origin is '*' or one https URL (scheme, host and optional port), not a list. */
export const corsOrigin = z.union([z.literal('*'), z.string().max(TEXT_FIELD_MAX).regex(/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/, 'Wrong Fromat!')]);
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const CORS_MAX_AGE_MIN = 1;
export const CORS_MAX_AGE_MAX = 86_400;

export const cors = z
  .object({
    allowOrigin: corsOrigin,
    allowMethods: z.array(z.enum(CORS_METHODS)).min(1).max(CORS_METHODS.length),
    allowHeaders: z.array(headerName).max(50).default([]),
    exposeHeaders: z.array(headerName).max(50).default([]),
    allowCredentials: z.boolean().default(false),
    maxAge: z.number().int().min(CORS_MAX_AGE_MIN).max(CORS_MAX_AGE_MAX),
  })
  .refine((c) => !(c.allowCredentials && c.allowOrigin === '*'), { path: ['allowCredentials'], message: "credentials cannot be allowed for origin '*'" });

/** A referer host: example.com or *.example.com. */
export const refererHost = z.string().toLowerCase().max(253).regex(/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'Wrong Fromat!');

/**
 * Spec: anti-referer. allow: only these referers pass (an empty referer passes when `empty`);
 * deny: these referers are refused (an empty referer is refused when `empty`).
 */
export const refererRule = z.object({
  type: z.enum(['allow', 'deny']),
  referers: z.array(refererHost).max(500).default([]),
  empty: z.boolean().default(false),
});

/** Spec: anti-header. A request whose header matches is refused with the 929 block page. */
export const headerRule = z
  .object({
    name: headerName,
    operator: z.enum(['exists', 'missing', 'equals', 'contains', 'regex']),
    value: z.string().max(TEXT_FIELD_MAX).default(''),
  })
  .superRefine((r, ctx) => {
    if (r.operator === 'regex' && !safeRegex.safeParse(r.value).success) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Wrong Fromat!' });
    if ((r.operator === 'equals' || r.operator === 'contains') && !r.value) ctx.addIssue({ code: 'custom', path: ['value'], message: 'Required Field!' });
  });

export type CustomHeader = z.infer<typeof customHeader>;
export type RedirectRule = z.infer<typeof redirectRule>;
export type Cors = z.infer<typeof cors>;
export type RefererRule = z.infer<typeof refererRule>;
export type HeaderRule = z.infer<typeof headerRule>;
/** Spec: proxy rewrite. The path (and optionally the Host) sent to the origin; the visitor's URL is unchanged. */
export const rewriteRule = z
  .object({
    match: z.enum(['prefix', 'regex']),
    source: z.string().min(1).max(TEXT_FIELD_MAX),
    /** A path; with regex, $1..$9 take the captures. */
    target: z.string().min(1).max(TEXT_FIELD_MAX).regex(/^\/[^\s"'\\?#]*$/, 'Wrong Fromat!'),
    /** The Host header the origin gets; empty keeps the visitor's. */
    host: z.union([z.literal(''), z.string().toLowerCase().max(253).regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/, 'Wrong Fromat!')]).default(''),
  })
  .superRefine((r, ctx) => {
    if (r.match === 'regex' ? !safeRegex.safeParse(r.source).success : !/^\/[^\s]*$/.test(r.source)) {
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'Wrong Fromat!' });
    }
  });

/**
 * Spec: token auth (signed URLs). A protected request needs `expires` (unix seconds, not past) and
 * `sign` = hex HMAC-SHA1(key, path + ":" + expires); scope all protects every path, paths only those prefixes.
 */
export const tokenAuth = z.object({
  key: z.string().min(16).max(128),
  scope: z.enum(['all', 'paths']),
  paths: z.array(z.string().min(1).max(TEXT_FIELD_MAX).regex(/^\/\S*$/, 'Wrong Fromat!')).max(500).default([]),
});

/** PBKDF2-HMAC-SHA1 with this many rounds: the edge checks a password in well under a millisecond per worker cache miss. */
export const BASIC_AUTH_ROUNDS = 2000;
/** A user of a basic-auth group as the edge sees it: never the password, only a salted PBKDF2 hash (hex). */
export const basicAuthUser = z.object({ user: z.string().min(1).max(64), salt: z.string().regex(/^[0-9a-f]{32}$/), hash: z.string().regex(/^[0-9a-f]{40}$/) });

/** Spec: basic auth rule. A path matching `pattern` needs the credentials of one of the users (401 otherwise). */
export const basicAuthRule = z.object({
  match: z.enum(['prefix', 'regex']),
  pattern: z.string().min(1).max(TEXT_FIELD_MAX),
  realm: z.string().max(64).regex(/^[^"\\\r\n]*$/),
  users: z.array(basicAuthUser).max(1000),
});

export const domainTraffic = z.object({
  rewrites: z.array(rewriteRule).max(500).default([]),
  tokenAuth: tokenAuth.nullable().default(null),
  basicAuth: z.array(basicAuthRule).max(100).default([]),
});

export type RewriteRule = z.infer<typeof rewriteRule>;
export type TokenAuth = z.infer<typeof tokenAuth>;
export type BasicAuthRule = z.infer<typeof basicAuthRule>;

/** What the edge runtime applies to one domain's requests, pushed without a reload. */
export const domainModules = z.object({
  domainId: z.number().int().positive(),
  headers: z.array(customHeader).max(100).default([]),
  redirects: z.array(redirectRule).max(REDIRECT_RULE_MAX).default([]),
  cors: cors.nullable().default(null),
  referers: z.array(refererRule).max(100).default([]),
  headerRules: z.array(headerRule).max(100).default([]),
  ...domainTraffic.shape,
});
export type DomainModules = z.infer<typeof domainModules>;
