import { firewallRuleSchemas } from '@edgekeep/contract';
import { readJson } from '../../db/json-column';

export type Fields = Record<string, unknown>;

/** A rule's site_firewall_rules.body read as its kind's fields. */
export const readRuleBody = (kind: firewallRuleSchemas.RuleKind, body: string): Fields =>
  readJson(`site_firewall_rules.body (${kind})`, firewallRuleSchemas.RULE_KINDS[kind].fields, body);
