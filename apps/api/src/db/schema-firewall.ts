import type { Generated } from 'kysely';
import type { Flag } from './schema';

export type FirewallTables = {
  /** The site firewall's rules besides the IP lists: `kind` names the list, `body` is the rule as JSON. */
  site_firewall_rules: { id: Generated<number>; site_id: number; kind: string; body: string; priority: number; enabled: Flag; created_at: string };
  site_firewall_settings: { site_id: number; advance: Flag };
  /** What edge nodes report blocked (blocked.lua), one row per site, node and address. */
  blocked_ips: { id: Generated<number>; site_id: number; node_id: number; ip: string; cause: string; expires_at: string; reported_at: string };
  /** A block lifted from the console: blocks of `ip` (all blocks when null) made before lifted_at (epoch seconds) go. */
  blocked_ip_lifts: { id: Generated<number>; site_id: number; ip: string | null; lifted_at: number };
};
