import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Uploaded certificates (keys encrypted), the domains serving them, cache rules, gzip and custom error pages. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('certificates'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('key_sealed', 'text', (c) => c.notNull())
      .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
      .addColumn('names', 'text', (c) => c.notNull())
      .addColumn('issuer', 'varchar(1024)', (c) => c.notNull())
      .addColumn('not_before', 'varchar(32)', (c) => c.notNull())
      .addColumn('not_after', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('domains').addColumn('certificate_id', 'integer', (c) => c.references('certificates.id')).execute();
    await db.schema.alterTable('sites').addColumn('gzip', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await withId(db.schema.createTable('site_cache_rules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('rule', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('site_error_pages'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('site_error_pages_status', ['site_id', 'status'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('site_error_pages').execute();
    await db.schema.dropTable('site_cache_rules').execute();
    await db.schema.alterTable('sites').dropColumn('gzip').execute();
    await db.schema.alterTable('domains').dropColumn('certificate_id').execute();
    await db.schema.dropTable('certificates').execute();
  },
};
