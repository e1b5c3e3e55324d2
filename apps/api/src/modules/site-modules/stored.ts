import { edge } from '@edgekeep/contract';
import { z } from 'zod';
import { readJson } from '../../db/json-column';

/** What site_module_items.item holds, per kind of module that has items. */
const ITEMS = { customHeader: edge.customHeader, urlRedirect: edge.redirectRule, proxyRewrite: edge.rewriteRule, tokenAuth: z.object({ path: z.string() }) } as const;
export type ItemKind = keyof typeof ITEMS;
/** (The schema is the one of `kind`: TypeScript cannot follow a key into a union of schemas, hence the one cast.) */
export const readItem = <K extends ItemKind>(kind: K, item: string) =>
  readJson(`site_module_items.item (${kind})`, ITEMS[kind] as z.ZodType, item) as z.output<(typeof ITEMS)[K]>;

/** What domain_access_rules.rule holds, per kind of rule. */
const ACCESS_RULES = { referer: edge.refererRule, header: edge.headerRule } as const;
export type AccessRuleKind = keyof typeof ACCESS_RULES;
export const readAccessRule = <K extends AccessRuleKind>(kind: K, rule: string) =>
  readJson(`domain_access_rules.rule (${kind})`, ACCESS_RULES[kind] as z.ZodType, rule) as z.output<(typeof ACCESS_RULES)[K]>;

/** What site_modules.config holds for a token-auth module; the key only sealed with the data key. */
const tokenConfig = z.object({ scope: z.enum(['all', 'paths']), expiry: z.number().int(), keySealed: z.string(), keyHint: z.string() });
export type TokenConfig = z.infer<typeof tokenConfig>;
export const readTokenConfig = (config: string) => readJson('site_modules.config (tokenAuth)', tokenConfig, config);
export const readWafConfig = (config: string) => readJson('site_modules.config (waf)', edge.wafSetting, config);
export const readCorsConfig = (config: string) => readJson('site_modules.config (cors)', edge.cors, config);
