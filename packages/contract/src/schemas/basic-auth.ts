import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { safeRegex } from '../edge/site-modules';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

export const siteParams = z.object({ siteId: idParam });
export const groupParams = z.object({ siteId: idParam, groupId: idParam });
export const idsBody = z.object({ ids });
const name = displayName(TEXT_FIELD_MAX);
const ref = z.object({ id: z.number(), name: z.string() });

export const metaGroupsQuery = z.object({ type: z.enum(['basic']).default('basic') });
export const groupsQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });
export const groupItem = z.object({ id: z.number(), name: z.string(), users: z.number(), rules: z.number(), createdAt: z.string() });
export const groupBody = z.object({ name });
export const updateGroupBody = z.object({ id, name });

/** A user name of HTTP basic auth: printable, no colon. */
const user = z.string().min(1, 'Required Field!').max(64).regex(/^[\x21-\x39\x3b-\x7e]+$/, 'Wrong Fromat!');
/** Never answered; kept only as a salted hash. */
const password = z.string().min(8, 'at least 8 characters').max(128);
export const userItem = z.object({ id: z.number(), user: z.string(), createdAt: z.string() });
export const userBody = z.object({ user, password });
export const updateUserBody = z.object({ id, user, password: password.optional() });

export const ruleItem = z.object({
  id: z.number(),
  match: z.enum(['prefix', 'regex']),
  pattern: z.string(),
  realm: z.string(),
  groups: z.array(ref),
  createdAt: z.string(),
});
const ruleFields = z
  .object({
    match: z.enum(['prefix', 'regex']),
    pattern: z.string().min(1, 'Required Field!').max(TEXT_FIELD_MAX),
    realm: z.string().max(64).regex(/^[^"\\\r\n]*$/, 'Wrong Fromat!').default('Restricted'),
    groupIDs: ids,
  })
  .superRefine((r, ctx) => {
    if (r.match === 'regex' ? !safeRegex.safeParse(r.pattern).success : !/^\/\S*$/.test(r.pattern)) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'Wrong Fromat!' });
    }
  });
export const ruleBody = ruleFields;
export const updateRuleBody = z.intersection(ruleFields, z.object({ id }));
export const rulesQuery = pageQuery;
export const settingExists = z.object({ exists: z.boolean() });
