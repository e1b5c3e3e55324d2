import { useQuery } from '@tanstack/react-query';
import { basicAuthRoutes as auth } from '@edgekeep/contract/routes/basic-auth';
import { siteModuleRoutes as m } from '@edgekeep/contract/routes/site-modules';
import { siteModuleOriginRoutes as o } from '@edgekeep/contract/routes/site-modules-origin';
import { siteModuleWafRoutes as w } from '@edgekeep/contract/routes/site-modules-waf';
import type { groupItem, ruleBody, ruleItem, rulesQuery, groupsQuery } from '@edgekeep/contract/schemas/basic-auth';
import type { siteModuleSchemas } from '@edgekeep/contract';
import type { antiHeaderBody, antiHeaderItem, corsesQuery, modulesQuery, redirectsQuery, refererBody, refererItem } from '@edgekeep/contract/schemas/site-modules';
import type { z } from 'zod';
import { callRoute, dataOf } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type AuthGroup = z.output<typeof groupItem>;
export type AuthRule = z.output<typeof ruleItem>;
export type AuthRuleInput = z.input<typeof ruleBody>;
export type RefererItem = z.output<typeof refererItem>;
export type RefererInput = z.input<typeof refererBody>;
export type AntiHeaderItem = z.output<typeof antiHeaderItem>;
export type AntiHeaderInput = z.input<typeof antiHeaderBody>;
export type ModuleItem = z.infer<typeof siteModuleSchemas.moduleItem>;
export type HeaderItem = z.infer<typeof siteModuleSchemas.headerItem>;
export type HeaderInput = z.input<typeof siteModuleSchemas.headerBody>;
export type RedirectItem = z.infer<typeof siteModuleSchemas.redirectItem>;
export type RedirectInput = z.input<typeof siteModuleSchemas.redirectBody>;
export type RewriteItem = z.infer<typeof siteModuleSchemas.rewriteItem>;
export type RewriteInput = z.input<typeof siteModuleSchemas.rewriteBody> & { id?: number };
export type CorsItem = z.infer<typeof siteModuleSchemas.corsItem>;
export type CorsInput = z.input<typeof siteModuleSchemas.corsBody>;
export type TokenAuthItem = z.infer<typeof siteModuleSchemas.tokenAuthItem>;
export type TokenAuthSaved = z.infer<typeof siteModuleSchemas.tokenAuthSaved>;
/** The form always holds an expiry (the contract's default to start with). */
export type TokenAuthInput = z.output<typeof siteModuleSchemas.createTokenAuthBody>;
export type SignResult = z.infer<typeof siteModuleSchemas.signResult>;
export type WafItem = z.infer<typeof siteModuleSchemas.wafItem>;
export type WafInput = z.input<typeof siteModuleSchemas.wafBody>;

export const siteModuleKeys = {
  authGroups: (siteId: number) => ['site', siteId, 'auth', 'groups'] as const,
  authMetaGroups: (siteId: number) => ['site', siteId, 'auth', 'groups', 'meta'] as const,
  authUsers: (siteId: number, groupId: number) => ['site', siteId, 'auth', 'groups', groupId, 'users'] as const,
  authRules: (siteId: number) => ['site', siteId, 'auth', 'rules'] as const,
  referers: (siteId: number, domainId: number) => ['site', siteId, 'domain', domainId, 'antiReferers'] as const,
  antiHeaders: (siteId: number, domainId: number) => ['site', siteId, 'domain', domainId, 'antiHeaders'] as const,
  list: (siteId: number, kind: string) => ['site', siteId, 'modules', kind] as const,
  items: (siteId: number, kind: string, moduleId: number) => ['site', siteId, 'modules', kind, moduleId, 'items'] as const,
  defaultWafRules: ['waf', 'defaultRules'] as const,
};

/** Basic auth (spec §7 Auth): groups of users, and rules binding paths to groups. */
export const basicAuth = {
  groups: (siteId: number, query: ListQuery) => callRoute(auth.groups, { params: { siteId }, query: query as z.input<typeof groupsQuery> }),
  saveGroup: (siteId: number, name: string, id?: number) =>
    id ? callRoute(auth.updateGroup, { params: { siteId }, body: { id, name } }) : callRoute(auth.createGroup, { params: { siteId }, body: { name } }),
  removeGroups: (siteId: number, ids: number[]) => callRoute(auth.removeGroups, { params: { siteId }, body: { ids } }),
  addUser: (siteId: number, groupId: number, body: { user: string; password: string }) => callRoute(auth.createUser, { params: { siteId, groupId }, body }),
  removeUsers: (siteId: number, groupId: number, ids: number[]) => callRoute(auth.removeUsers, { params: { siteId, groupId }, body: { ids } }),
  rules: (siteId: number, query: ListQuery) => callRoute(auth.rules, { params: { siteId }, query: query as z.input<typeof rulesQuery> }),
  createRule: (siteId: number, body: AuthRuleInput) => callRoute(auth.createRule, { params: { siteId }, body }),
  removeRules: (siteId: number, ids: number[]) => callRoute(auth.removeRules, { params: { siteId }, body: { ids } }),
};

export const useAuthUsers = (siteId: number, groupId: number) =>
  useQuery({ queryKey: siteModuleKeys.authUsers(siteId, groupId), queryFn: async () => (await callRoute(auth.users, { params: { siteId, groupId } })).data });
export const useAuthMetaGroups = (siteId: number) =>
  useQuery({ queryKey: siteModuleKeys.authMetaGroups(siteId), queryFn: async () => (await callRoute(auth.metaGroups, { params: { siteId }, query: { type: 'basic' } })).data });

/** A domain's referer and header rules (spec §7 anti-referer, anti-header). */
export const accessRules = {
  /** Adds a referer rule to the domain, or changes the one whose id is given. */
  saveReferer: (siteId: number, domainId: number, body: RefererInput & { id?: number }) =>
    body.id
      ? callRoute(m.updateAntiReferer, { params: { siteId }, body: { ...body, id: body.id, domainId } })
      : callRoute(m.addAntiReferer, { params: { siteId, domainId }, body }),
  removeReferers: (siteId: number, domainId: number, ids: number[]) => callRoute(m.removeAntiReferers, { params: { siteId, domainId }, body: { ids } }),
  /** Adds a header rule to the domain, or changes the one whose id is given. */
  saveAntiHeader: (siteId: number, domainId: number, body: AntiHeaderInput & { id?: number }) =>
    body.id
      ? callRoute(m.updateAntiHeader, { params: { siteId }, body: { ...body, id: body.id, domainId } })
      : callRoute(m.addAntiHeader, { params: { siteId, domainId }, body }),
  removeAntiHeaders: (siteId: number, domainId: number, ids: number[]) => callRoute(m.removeAntiHeaders, { params: { siteId, domainId }, body: { ids } }),
};

export const useReferers = (siteId: number, domainId: number) =>
  useQuery({ queryKey: siteModuleKeys.referers(siteId, domainId), queryFn: async () => (await callRoute(m.antiReferers, { params: { siteId, domainId } })).data });
export const useAntiHeaders = (siteId: number, domainId: number) =>
  useQuery({ queryKey: siteModuleKeys.antiHeaders(siteId, domainId), queryFn: async () => (await callRoute(m.antiHeaders, { params: { siteId, domainId } })).data });

/** The module kinds a domain is assigned to through PUT domains/module/<kind>. */
export type AssignKind = 'customHeader' | 'urlRedirect' | 'cors' | 'proxyRewrite' | 'tokenAuth' | 'waf';

const list = (query: ListQuery) => query as z.input<typeof modulesQuery>;

/** The site-module calls of spec §7 (Modules, WAF and ACL modules, Module assignment). */
export const modules = {
  assign: (siteId: number, kind: AssignKind, domainIDs: number[], moduleID: number) => {
    const params = { siteId };
    if (kind === 'cors') return callRoute(m.assignCors, { params, body: { domainIDs, corsID: moduleID } });
    const route = { customHeader: m.assignCustomHeader, urlRedirect: m.assignUrlRedirect, proxyRewrite: o.assignProxyRewrite, tokenAuth: o.assignTokenAuth, waf: w.assignWaf }[kind];
    return callRoute(route, { params, body: { domainIDs, moduleID } });
  },

  customHeaders: (siteId: number, query: ListQuery) => callRoute(m.customHeaders, { params: { siteId }, query: list(query) }),
  saveCustomHeader: (siteId: number, body: { id?: number; name: string }) => dataOf(callRoute(m.saveCustomHeader, { params: { siteId }, body })),
  removeCustomHeaders: (siteId: number, ids: number[]) => callRoute(m.removeCustomHeaders, { params: { siteId }, body: { ids } }),
  headers: (siteId: number, moduleId: number) => dataOf(callRoute(m.headers, { params: { siteId, moduleId } })),
  saveHeader: (siteId: number, moduleId: number, body: HeaderInput) => dataOf(callRoute(m.saveHeader, { params: { siteId, moduleId }, body })),
  removeHeaders: (siteId: number, moduleId: number, ids: number[]) => callRoute(m.removeHeaders, { params: { siteId, moduleId }, body: { ids } }),

  urlRedirects: (siteId: number, query: ListQuery) => callRoute(m.urlRedirects, { params: { siteId }, query: list(query) }),
  createUrlRedirect: (siteId: number, name: string) => dataOf(callRoute(m.createUrlRedirect, { params: { siteId }, body: { name } })),
  renameUrlRedirect: (siteId: number, id: number, name: string) => dataOf(callRoute(m.renameUrlRedirect, { params: { siteId }, body: { id, name } })),
  removeUrlRedirects: (siteId: number, ids: number[]) => callRoute(m.removeUrlRedirects, { params: { siteId }, body: { ids } }),
  urls: (siteId: number, moduleId: number, query: ListQuery) => callRoute(m.urls, { params: { siteId, moduleId }, query: query as z.input<typeof redirectsQuery> }),
  saveUrl: (siteId: number, moduleId: number, body: RedirectInput) => dataOf(callRoute(m.saveUrl, { params: { siteId, moduleId }, body })),
  removeUrls: (siteId: number, moduleId: number, ids: number[]) => callRoute(m.removeUrls, { params: { siteId, moduleId }, body: { ids } }),
  replaceUrl: (siteId: number, moduleId: number, from: string, to: string) => dataOf(callRoute(m.replaceUrl, { params: { siteId, moduleId }, body: { from, to } })),

  corses: (siteId: number, query: ListQuery) => callRoute(m.corses, { params: { siteId }, query: query as z.input<typeof corsesQuery> }),
  createCors: (siteId: number, body: CorsInput) => dataOf(callRoute(m.createCors, { params: { siteId }, body })),
  updateCors: (siteId: number, body: CorsInput & { id: number }) => dataOf(callRoute(m.updateCors, { params: { siteId }, body })),
  removeCorses: (siteId: number, ids: number[]) => callRoute(m.removeCorses, { params: { siteId }, body: { ids } }),

  proxyRewrites: (siteId: number, query: ListQuery) => callRoute(o.proxyRewrites, { params: { siteId }, query: list(query) }),
  createProxyRewrite: (siteId: number, name: string) => dataOf(callRoute(o.createProxyRewrite, { params: { siteId }, body: { name } })),
  renameProxyRewrite: (siteId: number, id: number, name: string) => dataOf(callRoute(o.renameProxyRewrite, { params: { siteId }, body: { id, name } })),
  removeProxyRewrites: (siteId: number, ids: number[]) => callRoute(o.removeProxyRewrites, { params: { siteId }, body: { ids } }),
  rewriteRules: (siteId: number, moduleId: number) => dataOf(callRoute(o.rewriteRules, { params: { siteId, moduleId } })),
  saveRewriteRule: (siteId: number, moduleId: number, { id, ...rule }: RewriteInput): Promise<unknown> =>
    id ? callRoute(o.updateRewriteRule, { params: { siteId, moduleId }, body: { ...rule, id } }) : callRoute(o.addRewriteRule, { params: { siteId, moduleId }, body: rule }),
  removeRewriteRules: (siteId: number, moduleId: number, ids: number[]) => callRoute(o.removeRewriteRules, { params: { siteId, moduleId }, body: { ids } }),

  tokenAuths: (siteId: number, query: ListQuery) => callRoute(o.tokenAuths, { params: { siteId }, query: list(query) }),
  /** Creates a token-auth module, or changes the one whose id is given; a generated key is answered once. */
  saveTokenAuth: (siteId: number, { id, ...body }: TokenAuthInput & { id?: number }) =>
    dataOf(id ? callRoute(o.updateTokenAuth, { params: { siteId }, body: { ...body, id } }) : callRoute(o.createTokenAuth, { params: { siteId }, body })),
  removeTokenAuths: (siteId: number, ids: number[]) => callRoute(o.removeTokenAuths, { params: { siteId }, body: { ids } }),
  tokenPaths: (siteId: number, moduleId: number) => dataOf(callRoute(o.tokenPaths, { params: { siteId, moduleId } })),
  addTokenPaths: (siteId: number, moduleId: number, items: string) => callRoute(o.addTokenPaths, { params: { siteId, moduleId }, body: { items } }),
  removeTokenPaths: (siteId: number, moduleId: number, ids: number[]) => callRoute(o.removeTokenPaths, { params: { siteId, moduleId }, body: { ids } }),
  sign: (siteId: number, moduleId: number, path: string, expiresIn?: number) => dataOf(callRoute(o.sign, { params: { siteId, moduleId }, body: { path, expiresIn } })),

  wafs: (siteId: number, query: ListQuery) => callRoute(w.wafs, { params: { siteId }, query: list(query) }),
  saveWaf: (siteId: number, { id, ...body }: WafInput & { id?: number }) =>
    dataOf(id ? callRoute(w.updateWaf, { params: { siteId }, body: { ...body, id } }) : callRoute(w.createWaf, { params: { siteId }, body })),
  removeWafs: (siteId: number, ids: number[]) => callRoute(w.removeWafs, { params: { siteId }, body: { ids } }),
};

/** The WAF rule groups a module can turn on; they do not change while the console runs. */
export const useDefaultWafRules = () => useQuery({ queryKey: siteModuleKeys.defaultWafRules, queryFn: () => dataOf(callRoute(w.defaultRules)) });
