import type { siteModuleSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

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
export type TokenAuthInput = z.input<typeof siteModuleSchemas.createTokenAuthBody>;
export type SignResult = z.infer<typeof siteModuleSchemas.signResult>;
export type WafItem = z.infer<typeof siteModuleSchemas.wafItem>;
export type WafInput = z.input<typeof siteModuleSchemas.wafBody>;
/** The module kinds a domain is assigned to through PUT domains/module/<kind>. */
export type AssignKind = 'customHeader' | 'urlRedirect' | 'cors' | 'proxyRewrite' | 'tokenAuth' | 'waf';

const tier = 'user' as const;
const at = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** The site-module calls of spec §7 (Modules, WAF and ACL modules, Module assignment). */
export const modulesApi = {
  assign: (siteId: number, kind: AssignKind, domainIDs: number[], moduleID: number) =>
    send<unknown>('PUT', at(siteId, `domains/module/${kind}`), kind === 'cors' ? { domainIDs, corsID: moduleID } : { domainIDs, moduleID }),

  customHeaders: (siteId: number, query: ListQuery) => callList<ModuleItem>(at(siteId, 'customHeaders'), { tier, query }),
  saveCustomHeader: (siteId: number, body: { id?: number; name: string }) => send<ModuleItem>('PUT', at(siteId, 'module/customHeader'), body),
  removeCustomHeaders: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'customHeaders'), { ids }),
  headers: (siteId: number, moduleId: number) => call<HeaderItem[]>(at(siteId, `customHeader/${moduleId}/headers`), { tier }),
  saveHeader: (siteId: number, moduleId: number, body: HeaderInput) => send<HeaderItem>('PUT', at(siteId, `customHeader/${moduleId}/header`), body),
  removeHeaders: (siteId: number, moduleId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `customHeader/${moduleId}/headers`), { ids }),

  urlRedirects: (siteId: number, query: ListQuery) => callList<ModuleItem>(at(siteId, 'urlRedirects'), { tier, query }),
  createUrlRedirect: (siteId: number, name: string) => send<ModuleItem>('POST', at(siteId, 'urlRedirects'), { name }),
  renameUrlRedirect: (siteId: number, id: number, name: string) => send<ModuleItem>('PUT', at(siteId, 'urlRedirects'), { id, name }),
  removeUrlRedirects: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'urlRedirects'), { ids }),
  urls: (siteId: number, moduleId: number, query: ListQuery) => callList<RedirectItem>(at(siteId, `urlRedirect/${moduleId}/urls`), { tier, query }),
  saveUrl: (siteId: number, moduleId: number, body: RedirectInput) => send<RedirectItem>('PUT', at(siteId, `urlRedirect/${moduleId}/url`), body),
  removeUrls: (siteId: number, moduleId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `urlRedirect/${moduleId}/urls`), { ids }),
  replaceUrl: (siteId: number, moduleId: number, from: string, to: string) =>
    send<{ replaced: number }>('POST', at(siteId, `urlRedirect/${moduleId}/replaceURL`), { from, to }),

  corses: (siteId: number, query: ListQuery) => callList<CorsItem>(at(siteId, 'corses'), { tier, query }),
  createCors: (siteId: number, body: CorsInput) => send<CorsItem>('POST', at(siteId, 'corses'), body),
  updateCors: (siteId: number, body: CorsInput & { id: number }) => send<CorsItem>('PUT', at(siteId, 'corses'), body),
  removeCorses: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'corses'), { ids }),

  proxyRewrites: (siteId: number, query: ListQuery) => callList<ModuleItem>(at(siteId, 'module/proxyRewrites'), { tier, query }),
  createProxyRewrite: (siteId: number, name: string) => send<ModuleItem>('POST', at(siteId, 'module/proxyRewrites'), { name }),
  renameProxyRewrite: (siteId: number, id: number, name: string) => send<ModuleItem>('PUT', at(siteId, 'module/proxyRewrite'), { id, name }),
  removeProxyRewrites: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'module/proxyRewrites'), { ids }),
  rewriteRules: (siteId: number, moduleId: number) => call<RewriteItem[]>(at(siteId, `module/proxyRewrite/${moduleId}/rules`), { tier }),
  saveRewriteRule: (siteId: number, moduleId: number, body: RewriteInput) =>
    send<RewriteItem>(body.id ? 'PUT' : 'POST', at(siteId, `module/proxyRewrite/${moduleId}/rules`), body),
  removeRewriteRules: (siteId: number, moduleId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `module/proxyRewrite/${moduleId}/rules`), { ids }),

  tokenAuths: (siteId: number, query: ListQuery) => callList<TokenAuthItem>(at(siteId, 'module/tokenAuths'), { tier, query }),
  saveTokenAuth: (siteId: number, body: TokenAuthInput & { id?: number }) => send<TokenAuthSaved>(body.id ? 'PUT' : 'POST', at(siteId, 'module/tokenAuth'), body),
  removeTokenAuths: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'module/tokenAuths'), { ids }),
  tokenPaths: (siteId: number, moduleId: number) => call<{ id: number; path: string }[]>(at(siteId, `module/tokenAuth/${moduleId}/auths`), { tier }),
  addTokenPaths: (siteId: number, moduleId: number, items: string) => send<unknown>('POST', at(siteId, `module/tokenAuth/${moduleId}/auths`), { items }),
  removeTokenPaths: (siteId: number, moduleId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `module/tokenAuth/${moduleId}/auths`), { ids }),
  sign: (siteId: number, moduleId: number, path: string, expiresIn?: number) =>
    send<SignResult>('POST', at(siteId, `module/tokenAuth/${moduleId}/sign`), { path, expiresIn }),

  wafs: (siteId: number, query: ListQuery) => callList<WafItem>(at(siteId, 'module/wafs'), { tier, query }),
  saveWaf: (siteId: number, body: WafInput & { id?: number }) => send<WafItem>(body.id ? 'PUT' : 'POST', at(siteId, body.id ? 'module/waf' : 'module/wafs'), body),
  removeWafs: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'module/wafs'), { ids }),
  defaultRules: () => call<{ id: number; name: string }[]>('user/module/wafs/defaultRules', { tier }),
};

export const moduleKeys = {
  list: (siteId: number, kind: string) => ['site', siteId, 'modules', kind] as const,
  items: (siteId: number, kind: string, moduleId: number) => ['site', siteId, 'modules', kind, moduleId, 'items'] as const,
};
