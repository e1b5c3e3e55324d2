import type { Generated } from 'kysely';
import type { Flag } from './schema';

/** Advanced WAF/ACL modules, their rules, the domains they guard, and anti-CC rules. */
export type WafTables = {
  waf_acl_modules: { id: Generated<number>; site_id: number; name: string; memo: string; created_at: string };
  waf_acl_rules: {
    id: Generated<number>;
    module_id: number;
    name: string;
    priority: number;
    enabled: Flag;
    logic: 'and' | 'or';
    /** JSON array of conditions, validated when saved. */
    conditions: string;
    action: string;
    redirect_url: string;
    block_seconds: number;
    created_at: string;
  };
  waf_acl_domains: { domain_id: number; module_id: number };
  site_anticc_rules: {
    id: Generated<number>;
    site_id: number;
    url_regex: string;
    seconds: number;
    times: number;
    type: number;
    priority: number;
    enabled: Flag;
    created_at: string;
  };
};
