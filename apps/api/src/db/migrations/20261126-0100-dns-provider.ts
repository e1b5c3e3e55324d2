import { withId, type MigrationStep } from './helpers';

/**
 * The DNS provider of each client (its API key sealed), the record sets written to it (those not yet taken are the
 * unprocessed tasks), and the client's CNAME domains.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('dns_settings')
      .addColumn('client_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('api_url', 'varchar(256)', (c) => c.notNull())
      .addColumn('server_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('api_key_sealed', 'text', (c) => c.notNull())
      .addColumn('ttl', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('dns_rrsets'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('zone', 'varchar(256)', (c) => c.notNull())
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('records', 'text', (c) => c.notNull())
      .addColumn('synced', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('dns_rrsets_client_name_type', ['client_id', 'name', 'type'])
      .execute();
    await db.schema.createIndex('dns_rrsets_pending').on('dns_rrsets').columns(['client_id', 'synced']).execute();
    await withId(db.schema.createTable('dns_cnames'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('domain', 'varchar(256)', (c) => c.notNull())
      .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('dns_cnames_client_domain', ['client_id', 'domain'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('dns_cnames').execute();
    await db.schema.dropTable('dns_rrsets').execute();
    await db.schema.dropTable('dns_settings').execute();
  },
};
