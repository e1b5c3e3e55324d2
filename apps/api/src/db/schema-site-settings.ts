import type { Generated } from 'kysely';

export type SiteSettingsDatabase = {
  site_options: { site_id: number; options: string; updated_at: string };
  site_rate_rules: { id: Generated<number>; site_id: number; url: string; rate: number; created_at: string; updated_at: string };
  site_dns_records: {
    id: Generated<number>;
    site_id: number;
    name: string;
    type: string;
    value: string;
    ttl: number;
    domain_ids: string;
    memo: string;
    created_at: string;
    updated_at: string;
  };
  site_users: { site_id: number; account_id: number; created_at: string };
  site_cache_tasks: { id: Generated<number>; site_id: number; type: string; urls: string; command_ids: string; created_by: number | null; created_at: string };
};
