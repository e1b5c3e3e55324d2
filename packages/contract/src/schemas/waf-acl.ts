import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { aclCondition, ACL_ACTIONS, ANTICC_TYPES } from '../edge/acl';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

export const siteParams = z.object({ siteId: idParam });
export const moduleParams = z.object({ siteId: idParam, moduleID: idParam });
export const idsBody = z.object({ ids });
export const enableBody = z.object({ ids, enabled: z.boolean() });

const name = displayName(TEXT_FIELD_MAX);
const memo = z.string().max(TEXT_FIELD_MAX).default('');

/** A luaAcl module: a named, ordered set of advanced rules, assigned to domains of the site. */
export const moduleInput = z.object({ name, memo });
export const modulesBody = z.object({ modules: z.array(moduleInput).min(1).max(100) });
export const updateModuleBody = z.object({ id, name, memo: z.string().max(TEXT_FIELD_MAX).optional() });
export const moduleItem = z.object({
  id: z.number(),
  name: z.string(),
  memo: z.string(),
  ruleCount: z.number(),
  domains: z.array(z.object({ id: z.number(), name: z.string() })),
  createdAt: z.string(),
});
export const modulesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });

/** Advanced WAF/ACL rule (spec §3); the operator/field fit and regular expressions are checked by the service. */
export const ruleInput = z.object({
  name,
  priority: z.number().int().min(1).max(100_000).default(100),
  enabled: z.boolean().default(true),
  logic: z.enum(['and', 'or']).default('and'),
  conditions: z.array(aclCondition).min(1, 'Required Field!').max(20),
  action: z.enum(ACL_ACTIONS),
  redirectURL: z.string().max(2048).default(''),
  blockSeconds: z.number().int().min(1).max(604_800).default(3600),
});
export const updateRuleBody = ruleInput.partial().extend({ id });
export const ruleItem = ruleInput.extend({ id: z.number(), moduleID: z.number(), createdAt: z.string() });
export const rulesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });

/** domains/module/luaAcl: moduleID 0 takes the module off the domains. */
export const assignBody = z.object({ domainIDs: z.array(id).min(1).max(5000), moduleID: z.number().int().min(0) });
export const existsItem = z.object({ exists: z.boolean(), modules: z.number(), rules: z.number() });

/** Anti-CC rule (spec §3, §4 protection modes). */
export const anticcInput = z.object({
  urlRegex: z.string().min(1, 'Required Field!').max(512),
  seconds: z.number().int().min(1).max(3600),
  times: z.number().int().min(1).max(1_000_000),
  type: z.union(ANTICC_TYPES.map((t) => z.literal(t))),
  priority: z.number().int().min(1).max(100_000).default(100),
  enabled: z.boolean().default(true),
});
export const updateAnticcBody = anticcInput.partial().extend({ id });
export const anticcItem = anticcInput.extend({ id: z.number(), createdAt: z.string() });
export const anticcsQuery = pageQuery.extend({ urlRegex: z.string().max(512).optional(), type: z.coerce.number().int().optional() });
/** The windows and thresholds the anti-CC form offers. */
export const freqsItem = z.object({
  seconds: z.array(z.number()),
  times: z.array(z.number()),
  defaults: z.object({ seconds: z.number(), times: z.number() }),
});
