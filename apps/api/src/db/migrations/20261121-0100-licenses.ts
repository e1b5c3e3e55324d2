import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Licenses (online and offline) with their signed keys, the license each client has activated, each client's
 * pending offline registration request, and per-client order records.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('licenses'), dialect)
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('site_limit', 'integer', (c) => c.notNull())
      .addColumn('node_limit', 'integer', (c) => c.notNull())
      .addColumn('zone_limit', 'integer', (c) => c.notNull())
      .addColumn('domain_limit', 'integer', (c) => c.notNull())
      .addColumn('auto_ssl_limit', 'integer', (c) => c.notNull())
      .addColumn('port_limit', 'integer', (c) => c.notNull())
      .addColumn('port_type', 'varchar(8)', (c) => c.notNull())
      .addColumn('node_monitor_seconds', 'integer', (c) => c.notNull())
      .addColumn('start_at', 'varchar(32)')
      .addColumn('client_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('installation_id', 'varchar(64)')
      .addColumn('nonce', 'varchar(64)')
      .addColumn('license_key', 'text')
      .addColumn('issued_at', 'varchar(32)')
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('licenses_kind_client').on('licenses').columns(['kind', 'client_id']).execute();
    await db.schema.createIndex('licenses_nonce').on('licenses').column('nonce').unique().execute();

    await withId(db.schema.createTable('license_activations'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().unique().references('accounts.id').onDelete('cascade'))
      .addColumn('license_id', 'integer', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
      .addColumn('license_key', 'text', (c) => c.notNull())
      .addColumn('activated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('license_registrations'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().unique().references('accounts.id').onDelete('cascade'))
      .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('license_orders'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('license_id', 'integer', (c) => c.references('licenses.id').onDelete('set null'))
      .addColumn('order_no', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(256)', (c) => c.notNull())
      .addColumn('amount', 'double precision', (c) => c.notNull())
      .addColumn('ordered_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('license_orders_client').on('license_orders').column('client_id').execute();
  },
  async down(db) {
    for (const t of ['license_orders', 'license_registrations', 'license_activations', 'licenses']) {
      await db.schema.dropTable(t).execute();
    }
  },
};
