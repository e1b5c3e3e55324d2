import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Site traffic modules: named modules of a site (custom headers, URL redirects, CORS) with their items,
 * which module of each kind a domain uses, and a domain's own referer and header rules.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('site_modules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('site_modules_site').on('site_modules').columns(['site_id', 'kind']).execute();
    await withId(db.schema.createTable('site_module_items'), dialect)
      .addColumn('module_id', 'integer', (c) => c.notNull().references('site_modules.id').onDelete('cascade'))
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('site_module_items_module').on('site_module_items').column('module_id').execute();
    await db.schema
      .createTable('domain_modules')
      .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('module_id', 'integer', (c) => c.notNull().references('site_modules.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('domain_modules_pk', ['domain_id', 'kind'])
      .execute();
    await withId(db.schema.createTable('domain_access_rules'), dialect)
      .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('rule', 'text', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('domain_access_rules').execute();
    await db.schema.dropTable('domain_modules').execute();
    await db.schema.dropTable('site_module_items').execute();
    await db.schema.dropTable('site_modules').execute();
  },
};
