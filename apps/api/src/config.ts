import path from 'node:path';

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Where links in mails point: the console's public address. */
  publicUrl: string;
  adminEmail?: string;
  adminPassword?: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  webDist?: string;
  logLevel: string;
  /** Behind a load balancer: take the client address from X-Forwarded-For. */
  /** Fastify's trustProxy: every hop (true) or the balancers' addresses and CIDRs. */
  trustProxy: boolean | string;
  /** DEMO=1: demo accounts (and, as capabilities land, their zones, nodes and sites); the password they get. */
  demoPassword?: string;
  /** Sites get a CNAME `<label>.<cnameDomain>` that resolves to their group's nodes. */
  cnameDomain: string;
  /** How long an agent's watch waits for a change before answering the same revision. */
  agentWatchSeconds: number;
  /** DEMO=1 with nginx and its Lua module here: the local edge node's ports and nginx. */
  demoEdge: { httpPort: number; httpsPort: number; l4Port: number; controlPort: number; nginxBin: string };
  /** DNS servers (ip or ip:port) the CNAME check asks; empty: the system's resolvers. */
  dnsResolvers: string[];
  /** Days the analytics store keeps raw access lines (log search and export); the rollups are kept longer. */
  logRetentionDays: number;
  /** L4_ATTACK_ANALYSIS=1 (or DEMO=1): the console shows the layer-4 attack analysis screen, hidden by default (spec §1). */
  l4AttackAnalysis: boolean;
  /** The chat-bot API (Telegram-compatible) notices go through where a client sets no outgoing URL. */
  botApiUrl: string;
  /** BACKUP_ROOT: database backup paths must lie below it (unset: any absolute path the API may write to). */
  backupRoot?: string;
  /** How often the automatic-certificate queue looks for due orders and renewals. */
  acmeQueueSeconds: number;
  /** Where GET /metrics (Prometheus) is served: loopback by default, never beside the public API; no port: not served. */
  metrics: { host: string; port?: number };
  /**
   * KEPT_ANSWERS: `on` keeps the answers of the routes registered as kept (see `registerRoute`); `off` reads every
   * answer afresh; `check` (the tests) reads afresh too and refuses, as an error, a kept answer that differs from
   * what was read. `on` by default on the embedded SQLite, `off` on PostgreSQL: there every kept answer costs a round
   * trip and every write a notice, a loss where writes are frequent (see the README's console-load figures).
   */
  keptAnswers: 'on' | 'off' | 'check';
};

/** Reads the environment once; everything else takes a Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'EdgeKeep <no-reply@edgekeep.local>',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS ?? 900),
    refreshTokenSeconds: Number(env.REFRESH_TOKEN_SECONDS ?? 30 * 24 * 3600),
    webDist: env.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    cnameDomain: env.CNAME_DOMAIN ?? 'cdn.edgekeep.local',
    agentWatchSeconds: Number(env.AGENT_WATCH_SECONDS ?? 30),
    dnsResolvers: (env.DNS_RESOLVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    logRetentionDays: Math.max(1, Number(env.LOG_RETENTION_DAYS ?? 7) || 7),
    backupRoot: env.BACKUP_ROOT ? path.resolve(env.BACKUP_ROOT) : undefined,
    acmeQueueSeconds: Math.max(1, Number(env.ACME_QUEUE_SECONDS ?? 5) || 5),
    metrics: { host: env.METRICS_HOST || '127.0.0.1', port: env.METRICS_PORT === 'off' ? undefined : Number(env.METRICS_PORT || 9464) },
    keptAnswers: env.KEPT_ANSWERS === 'off' || env.KEPT_ANSWERS === 'check' ? env.KEPT_ANSWERS : 'on',
    l4AttackAnalysis: env.L4_ATTACK_ANALYSIS === '1' || (env.DEMO === '1' && env.L4_ATTACK_ANALYSIS !== '0'),
    botApiUrl: (env.BOT_API_URL || 'https://api.telegram.org').replace(/\/+$/, ''),
    demoPassword: env.DEMO === '1' ? (env.DEMO_PASSWORD ?? 'edgekeep-demo') : undefined,
    demoEdge: {
      httpPort: Number(env.DEMO_EDGE_HTTP_PORT ?? 8081),
      httpsPort: Number(env.DEMO_EDGE_HTTPS_PORT ?? 8443),
      l4Port: Number(env.DEMO_EDGE_L4_PORT ?? 8022),
      controlPort: Number(env.DEMO_EDGE_CONTROL_PORT ?? 8099),
      nginxBin: env.NGINX_BIN ?? 'nginx',
    },
  };
}

/** TRUST_PROXY: unset or false, true, or a comma-separated list of the balancers' addresses or CIDRs. */
function trustProxyOf(value = '') {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  return v === 'true' ? true : v;
}
