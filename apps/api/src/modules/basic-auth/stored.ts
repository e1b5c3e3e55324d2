import { edge } from '@edgekeep/contract';
import { z } from 'zod';
import { readJson } from '../../db/json-column';

/** A rule's site_modules.config: what its body set (the body's own rules were checked when it was written). */
const ruleConfig = z.object({ match: z.enum(['prefix', 'regex']), pattern: z.string(), realm: z.string(), groupIDs: z.array(z.number().int()) });
export type RuleConfig = z.infer<typeof ruleConfig>;

export const readRuleConfig = (config: string) => readJson('site_modules.config (basic-auth rule)', ruleConfig, config);
/** A group's user as site_module_items.item keeps it: the name and the salted hash, never the password. */
export const readUser = (item: string) => readJson('site_module_items.item (basic-auth user)', edge.basicAuthUser, item);
