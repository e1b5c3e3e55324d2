import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import * as edge from '../edge/site-modules';
import { wafSetting } from '../edge/waf';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

export const MODULE_KINDS = ['customHeader', 'urlRedirect', 'cors', 'proxyRewrite', 'tokenAuth', 'waf'] as const;
export type ModuleKind = (typeof MODULE_KINDS)[number];

export const siteParams = z.object({ siteId: idParam });
export const moduleParams = z.object({ siteId: idParam, moduleId: idParam });
export const domainParams = z.object({ siteId: idParam, domainId: idParam });
export const corsParams = z.object({ siteId: idParam, id: idParam });
export const idsBody = z.object({ ids });

const name = displayName(TEXT_FIELD_MAX);
const domainRef = z.object({ id: z.number(), name: z.string() });

/** A module of a site and the domains it is assigned to. */
export const moduleItem = z.object({
  id: z.number(),
  name: z.string(),
  /** How many headers or redirect rules it holds. */
  count: z.number(),
  domains: z.array(domainRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const modulesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });
/** Without id: create; with id: rename. */
export const moduleBody = z.object({ id: id.optional(), name });
export const renameBody = z.object({ id, name });
export const createBody = z.object({ name });

/** Assign a module to domains; moduleID 0 (the None option) unassigns. */
export const assignBody = z.object({ domainIDs: ids, moduleID: z.number().int().min(0) });
export const assignCorsBody = z.object({ domainIDs: ids, corsID: z.number().int().min(0) });

export const headerItem = edge.customHeader.extend({ id: z.number() });
export const headerBody = edge.customHeader.extend({ id: id.optional() });
export const domainHeaders = z.object({ module: domainRef.nullable(), headers: z.array(headerItem) });

export const redirectItem = z.object({
  id: z.number(),
  match: z.enum(['exact', 'prefix', 'regex']),
  source: z.string(),
  target: z.string(),
  code: z.union([z.literal(301), z.literal(302)]),
  keepQuery: z.boolean(),
});
export const redirectBody = z.intersection(edge.redirectRule, z.object({ id: id.optional() }));
export const redirectsQuery = pageQuery.extend({ keyword: z.string().max(TEXT_FIELD_MAX).optional() });
/** Replaces text in every target of the module (for example a moved host). */
export const replaceUrlBody = z.object({ from: z.string().min(1).max(TEXT_FIELD_MAX), to: z.string().max(TEXT_FIELD_MAX) });
export const replaceUrlResult = z.object({ replaced: z.number() });

export const corsItem = z.object({
  id: z.number(),
  name: z.string(),
  allowOrigin: z.string(),
  allowMethods: z.array(z.string()),
  allowHeaders: z.array(z.string()),
  exposeHeaders: z.array(z.string()),
  allowCredentials: z.boolean(),
  maxAge: z.number(),
  domains: z.array(domainRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const corsBody = z.intersection(edge.cors, z.object({ name }));
export const updateCorsBody = z.intersection(edge.cors, z.object({ id, name }));
export const corsesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });

export const moduleExists = z.object({ customHeader: z.boolean(), urlRedirect: z.boolean(), cors: z.boolean(), proxyRewrite: z.boolean(), tokenAuth: z.boolean(), waf: z.boolean() });

const memo = z.string().max(TEXT_FIELD_MAX).default('');
export const refererItem = z.object({ id: z.number(), type: z.enum(['allow', 'deny']), referers: z.array(z.string()), empty: z.boolean(), memo: z.string() });
export const refererBody = z.intersection(edge.refererRule, z.object({ memo }));
export const updateRefererBody = z.intersection(edge.refererRule, z.object({ id, domainId: id, memo }));
export const antiHeaderItem = z.object({ id: z.number(), name: z.string(), operator: z.string(), value: z.string(), memo: z.string() });
export const antiHeaderBody = z.intersection(edge.headerRule, z.object({ memo }));
export const updateAntiHeaderBody = z.intersection(edge.headerRule, z.object({ id, domainId: id, memo }));

export const rewriteItem = z.object({ id: z.number(), match: z.enum(['prefix', 'regex']), source: z.string(), target: z.string(), host: z.string() });
export const rewriteBody = edge.rewriteRule;
export const updateRewriteBody = z.intersection(edge.rewriteRule, z.object({ id }));

/** The signing key is write-only: a custom one (16 to 128 characters) or, left out on create, a generated one shown once. */
const tokenKey = z.string().min(16, 'at least 16 characters').max(128).regex(/^[\x21-\x7e]+$/, 'Wrong Fromat!');
/** Seconds a URL signed in the console stays valid. */
const expiry = z.number().int().min(60).max(31_536_000);
export const tokenAuthItem = z.object({
  id: z.number(),
  name: z.string(),
  scope: z.enum(['all', 'paths']),
  expiry: z.number(),
  /** The last 4 characters of the key, to tell keys apart. */
  keyHint: z.string(),
  count: z.number(),
  domains: z.array(domainRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const createTokenAuthBody = z.object({ name, scope: z.enum(['all', 'paths']), expiry: expiry.default(3600), key: tokenKey.optional() });
export const updateTokenAuthBody = z.object({ id, name, scope: z.enum(['all', 'paths']), expiry, key: tokenKey.optional() });
/** The key is answered once, when it was generated or replaced. */
export const tokenAuthSaved = tokenAuthItem.extend({ key: z.string().optional() });
export const tokenPathItem = z.object({ id: z.number(), path: z.string() });
/** The protected path prefixes (scope paths), one per line. */
export const tokenPathsBody = z.object({
  items: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean))
    .pipe(z.array(z.string().max(TEXT_FIELD_MAX).regex(/^\/\S*$/, 'Wrong Fromat!')).min(1, 'Required Field!').max(500)),
});
export const signBody = z.object({ path: z.string().min(1).max(2048).regex(/^\/[^\s?#]*$/, 'Wrong Fromat!'), expiresIn: expiry.optional() });
export const signResult = z.object({ path: z.string(), expires: z.number(), sign: z.string(), url: z.string() });

export const wafItem = z.object({
  id: z.number(),
  name: z.string(),
  mode: z.enum(['block', 'detect']),
  paranoia: z.number(),
  excludedRules: z.array(z.number()),
  domains: z.array(domainRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const wafBody = z.intersection(wafSetting, z.object({ name }));
export const updateWafBody = z.intersection(wafSetting, z.object({ id, name }));
export const defaultRule = z.object({ id: z.number(), name: z.string() });
