import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Accounts of all three tiers, sign-in challenges and failures, sessions, refresh and mail tokens. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('accounts'), dialect)
      .addColumn('auth', 'varchar(16)', (c) => c.notNull())
      .addColumn('email', 'varchar(256)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('is_root', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('login_notify', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('role_id', 'integer')
      .addColumn('grade', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('client_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('parent_client_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('parent_user_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('dns_type', 'varchar(32)')
      .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('second_factor', 'varchar(8)', (c) => c.notNull().defaultTo('mail'))
      .addColumn('totp_secret', 'text')
      .addColumn('totp_last_step', 'bigint')
      .addColumn('max_log_export_times', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('accounts_auth_email', ['auth', 'email'])
      .execute();

    await withId(db.schema.createTable('login_challenges'), dialect)
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)')
      .addColumn('secret', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('auth_failures'), dialect)
      .addColumn('scope', 'varchar(300)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auth_failures_scope_time').on('auth_failures').columns(['scope', 'created_at']).execute();

    await withId(db.schema.createTable('sessions'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('auth', 'varchar(16)', (c) => c.notNull())
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('proxy_account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(256)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('revoked_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

    await withId(db.schema.createTable('refresh_tokens'), dialect)
      .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('rotated_at', 'varchar(32)')
      .execute();

    await withId(db.schema.createTable('mail_tokens'), dialect)
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    for (const t of ['mail_tokens', 'refresh_tokens', 'sessions', 'auth_failures', 'login_challenges', 'accounts']) {
      await db.schema.dropTable(t).execute();
    }
  },
};
