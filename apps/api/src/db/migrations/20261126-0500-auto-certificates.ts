import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Automatic certificates: one queue row per domain with auto SSL (its state, the CA's last error, when it is next
 * due and which API instance holds it), the HTTP-01 answers the edges serve while an order runs, the issuances
 * counted against the CA's per-registered-domain budget, and each client's certificate provider and ACME account.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('auto_certificates'), dialect)
      .addColumn('domain_id', 'integer', (c) => c.notNull().unique().references('domains.id').onDelete('cascade'))
      .addColumn('site_id', 'integer', (c) => c.notNull())
      .addColumn('client_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addColumn('registered_domain', 'varchar(253)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('challenge', 'varchar(8)', (c) => c.notNull().defaultTo('http-01'))
      .addColumn('certificate_id', 'integer', (c) => c.references('certificates.id').onDelete('set null'))
      .addColumn('not_after', 'varchar(32)')
      .addColumn('renew_at', 'varchar(32)')
      .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('hint', 'varchar(32)')
      .addColumn('claimed_by', 'varchar(64)')
      .addColumn('claim_until', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auto_certificates_due').on('auto_certificates').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('auto_certificates_client').on('auto_certificates').column('client_id').execute();
    await withId(db.schema.createTable('acme_challenges'), dialect)
      .addColumn('zone_id', 'integer', (c) => c.notNull())
      .addColumn('auto_certificate_id', 'integer', (c) => c.notNull().references('auto_certificates.id').onDelete('cascade'))
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addColumn('token', 'varchar(256)', (c) => c.notNull())
      .addColumn('key_authorization', 'varchar(512)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('acme_challenges_zone').on('acme_challenges').column('zone_id').execute();
    await withId(db.schema.createTable('acme_issuances'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull())
      .addColumn('registered_domain', 'varchar(253)', (c) => c.notNull())
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('acme_issuances_domain').on('acme_issuances').columns(['registered_domain', 'issued_at']).execute();
    await db.schema
      .createTable('acme_accounts')
      .addColumn('client_id', 'integer', (c) => c.primaryKey())
      .addColumn('provider', 'varchar(24)', (c) => c.notNull())
      .addColumn('directory_url', 'varchar(512)', (c) => c.notNull())
      .addColumn('ca_bundle', 'text')
      .addColumn('email', 'varchar(256)')
      .addColumn('zerossl_eab', 'text')
      .addColumn('google_eab', 'text')
      .addColumn('account_key_sealed', 'text')
      .addColumn('account_url', 'varchar(512)')
      .addColumn('account_directory', 'varchar(512)')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('acme_accounts').execute();
    await db.schema.dropTable('acme_issuances').execute();
    await db.schema.dropTable('acme_challenges').execute();
    await db.schema.dropTable('auto_certificates').execute();
  },
};
