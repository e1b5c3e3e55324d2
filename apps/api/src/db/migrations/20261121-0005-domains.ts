import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** A site's domains and each domain's origins. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('domains'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
      .addColumn('force_ssl', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('hsts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('domains_site').on('domains').column('site_id').execute();
    await db.schema.createIndex('domains_name').on('domains').columns(['name', 'status']).execute();

    await withId(db.schema.createTable('upstreams'), dialect)
      .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
      .addColumn('host', 'varchar(253)', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('weight', 'integer', (c) => c.notNull())
      .addColumn('backup', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_fails', 'integer', (c) => c.notNull())
      .addColumn('fail_timeout', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('upstreams_domain').on('upstreams').column('domain_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('upstreams').execute();
    await db.schema.dropTable('domains').execute();
  },
};
