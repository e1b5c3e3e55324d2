import type { FirewallTables } from './schema-firewall';
import type { Generated } from 'kysely';
import type { agentProtocol, Tier } from '@edgekeep/contract';
import type { SiteSettingsDatabase } from './schema-site-settings';
import type { WafTables } from './schema-waf';
import type { AnnouncementTables } from './schema-announcements';
import type { LogExportTables } from './schema-log-exports';
import type { DashboardTables } from './schema-dashboards';
import type { JobTables } from './schema-jobs';
import type { DnsTables } from './schema-dns';
import type { BackupUpgradeTables } from './schema-backup-upgrades';
import type { AcmeTables } from './schema-acme';
import type { NodeExtraTables } from './schema-node-extras';
import type { NotificationTables } from './schema-notifications';
import type { ClientSettingTables } from './schema-client-settings';

/** Times are ISO-8601 UTC text and flags are 0/1 integers, the same on SQLite and PostgreSQL. */
export type Flag = 0 | 1;

export type AccountTable = {
  id: Generated<number>;
  auth: Tier;
  email: string;
  name: string;
  password_hash: string | null;
  is_root: Flag;
  enabled: Flag;
  expires_at: string | null;
  login_notify: Flag;
  role_id: number | null;
  grade: number;
  client_id: number | null;
  parent_client_id: number | null;
  parent_user_id: number | null;
  dns_type: string | null;
  email_confirmed: Flag;
  created_by: number | null;
  second_factor: 'mail' | 'app' | 'none';
  totp_secret: string | null;
  totp_last_step: number | null;
  max_log_export_times: number;
  /** Ancestors as `/a/b/`: the subtree of X is every account whose path contains `/X/`. */
  tree_path: Generated<string>;
  created_at: string;
  updated_at: string;
};

export type ChallengeTable = {
  id: Generated<number>;
  key_hash: string;
  account_id: number;
  purpose: 'login' | '2fa-verify' | '2fa-enroll';
  code_hash: string | null;
  secret: string | null;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

export type AuthFailureTable = { id: Generated<number>; scope: string; created_at: string };
export type KnownAddressTable = { account_id: number; ip: string; last_seen_at: string };

export type SessionTable = {
  id: Generated<number>;
  account_id: number;
  auth: Tier;
  kind: 'login' | 'api' | 'proxy';
  proxy_account_id: number | null;
  name: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
};

export type RefreshTokenTable = {
  id: Generated<number>;
  session_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
};

export type MailTokenTable = {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  purpose: 'set-password';
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

export type RoleTable = {
  id: Generated<number>;
  auth: Tier;
  /** The tenant's root account; null on the admin tier, whose roles all admins share. */
  owner_id: number | null;
  name: string;
  /** JSON array of permission keys. */
  permissions: string;
  created_at: string;
  updated_at: string;
};

export type AuditLogTable = {
  id: Generated<number>;
  type: 'a' | 'c' | 'u';
  account_id: number | null;
  account_name: string | null;
  proxy_account_id: number | null;
  proxy_name: string | null;
  method: string;
  url: string;
  req_id: string;
  status: number;
  code: number | null;
  ip: string;
  body: string | null;
  created_at: string;
};

export type ZoneTable = {
  id: Generated<number>;
  client_id: number;
  name: string;
  regions: string;
  memo: string;
  /** JSON of contract infraSchemas.zoneSettings. */
  settings: string;
  created_at: string;
  updated_at: string;
};

export type ZoneRevisionTable = {
  zone_id: number;
  /** The revision of the desired state of every node in the zone. */
  revision: Generated<number>;
  /** When the zone took that revision (null: before revisions were timed). */
  revision_at: string | null;
  /** The last revision that may have changed any of the zone's sites (site_edge_revisions: one that changed some). */
  sites_revision: Generated<number>;
};

export type ZoneAssignmentTable = { zone_id: number; client_id: number };

export type NodeTable = {
  id: Generated<number>;
  zone_id: number;
  client_id: number;
  node_uid: string;
  name: string;
  ip: string;
  type: 'edge' | 'relay';
  virtual: Flag;
  role: 'main' | 'backup';
  port_type: 7 | 4;
  bandwidth: number;
  cache_capacity: number;
  memo: string;
  enabled: Flag;
  enroll_token_hash: string | null;
  enroll_expires_at: string | null;
  credential_hash: string | null;
  initialized_at: string | null;
  version: string | null;
  /** JSON of the agent's last report. */
  report: string | null;
  applied_revision: number | null;
  apply_error: string | null;
  last_report_at: string | null;
  /** JSON of agentProtocol.nodeMonitor; null: the defaults. */
  monitor: string | null;
  /** JSON of agentProtocol.nodeGeneva; null: the defaults. */
  geneva: string | null;
  monitor_breach: string | null;
  resolvable: Generated<Flag>;
  created_at: string;
  updated_at: string;
};

export type NodeCommandTable = {
  id: Generated<number>;
  node_id: number;
  kind: agentProtocol.Command['kind'];
  args: string;
  status: 'queued' | 'sent' | 'done' | 'failed';
  message: string | null;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
};

export type NodeGroupTable = {
  id: Generated<number>;
  zone_id: number;
  name: string;
  line: string;
  priority: number;
  dns_resolve: Flag;
  created_at: string;
  updated_at: string;
};

export type ProductTable = {
  id: Generated<number>;
  client_id: number;
  name: string;
  zone_id: number;
  group_id: number;
  backup_group_id: number | null;
  /** JSON: the product's limits and terms (domain/site limits, bandwidth, price, actions, flags). */
  limits: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
};

export type SiteTable = {
  id: Generated<number>;
  client_id: number;
  user_id: number;
  product_id: number;
  name: string;
  /** 0 paused, 1 normal, 2 locked, 3 expired. */
  status: number;
  cname: string;
  /** JSON array, sorted. */
  tags: string;
  expires_at: string | null;
  gzip: Generated<Flag>;
  /** The group the site resolves to, taken from its product (product/refresh re-derives it). */
  group_id: number | null;
  /** 1: served by its product's backup group instead. */
  force_backup: Generated<Flag>;
  /** JSON object of limits narrowing the product's (absent = the product's). */
  limitations: Generated<string>;
  /** Kept by the database (triggers on domains), never written by the app. */
  domain_count: Generated<number>;
  /** Raised by the database (triggers on domains and on the site's name) on every change its domain lists can show. */
  domains_version: Generated<number>;
  created_at: string;
  updated_at: string;
};

export type DomainTable = {
  id: Generated<number>;
  site_id: number;
  name: string;
  /** 1 enabled, 0 disabled. */
  status: 0 | 1;
  protocol: 'http' | 'https' | 'follow';
  force_ssl: Flag;
  hsts: Flag;
  tags: string;
  certificate_id: number | null;
  created_at: string;
  updated_at: string;
  cname_status: Generated<'pending' | 'active' | 'inactive'>;
  cname_checked_at: string | null;
  auto_ssl: Generated<Flag>;
  balance: Generated<'round_robin' | 'ip_hash' | 'least_conn'>;
  /** JSON: { enabled, rules: [{ listen, originPort }] }. */
  port_map: Generated<string>;
};

export type UpstreamTable = {
  id: Generated<number>;
  domain_id: number;
  host: string;
  port: number;
  weight: number;
  backup: Flag;
  max_fails: number;
  fail_timeout: number;
  enabled: Flag;
  hash: Generated<string>;
  keepalive: Generated<number>;
};

export type CertificateTable = {
  id: Generated<number>;
  site_id: number;
  name: string;
  /** PEM, leaf first. */
  chain: string;
  /** The private key, encrypted with the platform's data key. */
  key_sealed: string;
  subject: string;
  /** JSON array of the names the certificate covers. */
  names: string;
  issuer: string;
  not_before: string;
  not_after: string;
  created_at: string;
  updated_at: string;
};

export type LicenseTable = {
  id: Generated<number>;
  kind: 'online' | 'offline';
  name: string;
  days: number;
  site_limit: number;
  node_limit: number;
  zone_limit: number;
  domain_limit: number;
  auto_ssl_limit: number;
  port_limit: number;
  port_type: '7' | '7+4';
  node_monitor_seconds: number;
  start_at: string | null;
  /** The client it is issued to (online) or registered for (offline). */
  client_id: number | null;
  installation_id: string | null;
  nonce: string | null;
  /** The signed license key; null until issued, and again once an offline registration is released. */
  license_key: string | null;
  issued_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
};

/** The one license a client holds: the key it activated (offline) or was issued (online). */
export type LicenseActivationTable = {
  id: Generated<number>;
  client_id: number;
  license_id: number;
  license_key: string;
  activated_at: string;
};

/** A client's pending offline registration request: the nonce the answering key must carry. */
export type LicenseRegistrationTable = { id: Generated<number>; client_id: number; nonce: string; created_at: string };

export type LicenseOrderTable = {
  id: Generated<number>;
  client_id: number;
  license_id: number | null;
  order_no: string;
  description: string;
  amount: number;
  ordered_at: string;
  memo: string;
  created_at: string;
};

export type Database = SiteSettingsDatabase & WafTables & JobTables & DnsTables & BackupUpgradeTables & AcmeTables & {
  accounts: AccountTable;
  login_challenges: ChallengeTable;
  auth_failures: AuthFailureTable;
  known_addresses: KnownAddressTable;
  sessions: SessionTable;
  refresh_tokens: RefreshTokenTable;
  mail_tokens: MailTokenTable;
  roles: RoleTable;
  audit_logs: AuditLogTable;
  zones: ZoneTable;
  zone_assignments: ZoneAssignmentTable;
  nodes: NodeTable;
  node_commands: NodeCommandTable;
  revisions: { id: number; value: number };
  node_groups: NodeGroupTable;
  node_group_members: { group_id: number; node_id: number };
  products: ProductTable;
  sites: SiteTable;
  /** The last revision that changed a site alone (zones.sites_revision: one that may have changed any site); none before one did. */
  site_edge_revisions: { site_id: number; revision: number };
  /** A zone's revisions, apart from its row so that a bump leaves what reads the zone's settings alone; one per zone. */
  zone_revisions: ZoneRevisionTable;
  domains: DomainTable;
  upstreams: UpstreamTable;
  certificates: CertificateTable;
  site_cache_rules: { id: Generated<number>; site_id: number; rule: string; created_at: string };
  site_error_pages: { id: Generated<number>; site_id: number; status: number; type: string; body: string; created_at: string; updated_at: string };
  site_ip_rules: { id: Generated<number>; site_id: number; list: 'blacklist' | 'whitelist'; ip: string; memo: string; enabled: Flag; created_at: string; url: Generated<string>; methods: Generated<string>; port: Generated<number> };
  licenses: LicenseTable;
  virtual_nodes: { node_id: number; switch_interval: number };
  monitor_groups: { id: Generated<number>; client_id: number; name: string; memo: string; created_at: string; updated_at: string };
  monitor_group_members: { group_id: number; monitor_id: number };
  monitors: {
    id: Generated<number>;
    node_id: number;
    type: 'status' | 'content' | 'tcp' | 'ping';
    url: string;
    port: number;
    status_code: string;
    content: string;
    interval: number;
    failure_action: 'none' | 'pause';
    enabled: Flag;
    /** 0 unknown, 1 normal, 2 error. */
    status: number;
    last_error: string | null;
    checked_at: string | null;
    created_at: string;
    updated_at: string;
  };
  virtual_node_records: { id: Generated<number>; virtual_node_id: number; type: 'cname' | 'ip'; value: string; node_id: number | null };
  license_activations: LicenseActivationTable;
  license_registrations: LicenseRegistrationTable;
  license_orders: LicenseOrderTable;
  extra_traffic_plans: ExtraTrafficPlanTable;
  site_traffic_states: SiteTrafficStateTable;
  l4_ports: L4PortTable;
  l4_upstreams: L4UpstreamTable;
} & SiteModuleTables & FirewallTables & AnnouncementTables & NodeExtraTables & LogExportTables & DashboardTables & NotificationTables & ClientSettingTables;

/** Site traffic modules (custom headers, URL redirects, CORS) and per-domain referer and header rules. */
export type SiteModuleTables = {
  site_modules: { id: Generated<number>; site_id: number; kind: string; name: string; config: string; created_at: string; updated_at: string };
  site_module_items: { id: Generated<number>; module_id: number; item: string; created_at: string };
  domain_modules: { domain_id: number; kind: string; module_id: number };
  domain_access_rules: { id: Generated<number>; domain_id: number; kind: 'referer' | 'header'; rule: string; memo: string; created_at: string };
};

export type ExtraTrafficPlanTable = {
  id: Generated<number>;
  site_id: number;
  traffic_gb: number;
  /** NTD. */
  price: number;
  year: number;
  month: number;
  memo: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
};

export type SiteTrafficStateTable = {
  site_id: number;
  state: 'normal' | 'warning' | 'limited';
  /** 1 while the edge refuses the site's requests for its traffic. */
  limited: Flag;
  evaluated_at: string;
};

export type L4PortTable = { id: Generated<number>; site_id: number; port: number; protocol: Generated<'tcp'>; created_at: string; updated_at: string };
export type L4UpstreamTable = Omit<UpstreamTable, 'domain_id' | 'hash' | 'keepalive'> & { port_id: number; created_at: string };
