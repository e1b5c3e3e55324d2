import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Per-site options (HSTS, body size, WebP, cache key, ports), rate rules, DNS records and warm-cache tasks. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('site_options')
      .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('site_rate_rules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('url', 'varchar(256)', (c) => c.notNull())
      .addColumn('rate', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('site_rate_rules_url', ['site_id', 'url'])
      .execute();

    await withId(db.schema.createTable('site_dns_records'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('name', 'varchar(253)', (c) => c.notNull())
      .addColumn('type', 'varchar(8)', (c) => c.notNull())
      .addColumn('value', 'varchar(512)', (c) => c.notNull())
      .addColumn('ttl', 'integer', (c) => c.notNull())
      .addColumn('domain_ids', 'text', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('site_cache_tasks'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('urls', 'text', (c) => c.notNull())
      .addColumn('command_ids', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('site_cache_tasks').execute();
    await db.schema.dropTable('site_dns_records').execute();
    await db.schema.dropTable('site_rate_rules').execute();
    await db.schema.dropTable('site_options').execute();
  },
};
