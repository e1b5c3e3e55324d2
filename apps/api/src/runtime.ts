import crypto from 'node:crypto';
import pino, { type Logger } from 'pino';
import { createAnalyticsStore } from './analytics/store';
import type { Config } from './config';
import { openDatabase, stopHearing } from './db';
import { migrateToLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { createScheduler } from './jobs/scheduler';
import { createMailer } from './lib/mailer';
import { createRevisionBus } from './lib/revisions';
import { loadSecrets } from './lib/secrets';
import { createMetrics } from './metrics/metrics';
import { rootAdminExists } from './modules/accounts/repo';
import { createAccount } from './modules/accounts/service';

/** Structured logs; credentials never reach a log line. */
export const createLogger = (level: string) =>
  pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refreshToken', '*.accessToken', '*.token'],
      censor: '[redacted]',
    },
  });

/** Opens the database (migrated to the latest schema), the platform's keys and the mailer. */
export async function openRuntime(config: Config, log: Logger): Promise<AppDeps> {
  const { db, dialect } = openDatabase({ ...config, log });
  const applied = await migrateToLatest({ db, dialect });
  if (applied.length) log.info({ applied, dialect }, 'migrations applied');
  const secrets = loadSecrets(config.dataDir);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: config.mailFrom, log });
  const metrics = createMetrics({ db, dialect });
  const revisions = await createRevisionBus({ databaseUrl: config.databaseUrl, log, watchers: metrics.watchers });
  return {
    db,
    dialect,
    config,
    secrets,
    mailer,
    log,
    revisions,
    analytics: createAnalyticsStore({ dataDir: config.dataDir, rawRetentionDays: config.logRetentionDays }),
    scheduler: createScheduler({ db, log, metrics }),
    metrics,
  };
}

export async function closeRuntime(deps: AppDeps) {
  await deps.scheduler.stop();
  deps.mailer.close();
  await deps.analytics.close();
  await deps.revisions.close();
  await stopHearing(deps.db);
  await deps.db.destroy();
}

/**
 * On first start, the root admin: from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated password printed once
 * to the terminal (never to the log).
 */
export async function ensureRootAdmin(deps: AppDeps) {
  if (await rootAdminExists(deps.db)) return;
  const email = deps.config.adminEmail ?? 'admin@edgekeep.local';
  const generated = deps.config.adminPassword ? undefined : crypto.randomBytes(12).toString('base64url');
  await createAccount(deps, { auth: 'admin', email, name: 'admin', password: deps.config.adminPassword ?? generated, isRoot: true });
  deps.log.info({ email }, 'root admin account created');
  if (generated) {
    process.stdout.write(
      `\n  EdgeKeep root admin created: ${email}\n  Password (shown once, change it after signing in): ${generated}\n  Sign in at ${deps.config.publicUrl}/admin/login\n\n`,
    );
  }
}
