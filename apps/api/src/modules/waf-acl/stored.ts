import { edge } from '@edgekeep/contract';
import { z } from 'zod';
import { readJson } from '../../db/json-column';

const conditions = z.array(edge.aclCondition);

/** A rule's waf_acl_rules.conditions, as the contract's conditions. */
export const readConditions = (text: string) => readJson('waf_acl_rules.conditions', conditions, text);
