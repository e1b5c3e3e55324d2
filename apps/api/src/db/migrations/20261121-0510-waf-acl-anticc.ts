import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Advanced WAF/ACL modules and rules, their domain assignment, and anti-CC rules. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('waf_acl_modules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('waf_acl_modules_name', ['site_id', 'name'])
      .execute();
    await withId(db.schema.createTable('waf_acl_rules'), dialect)
      .addColumn('module_id', 'integer', (c) => c.notNull().references('waf_acl_modules.id').onDelete('cascade'))
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('logic', 'varchar(8)', (c) => c.notNull())
      .addColumn('conditions', 'text', (c) => c.notNull())
      .addColumn('action', 'varchar(32)', (c) => c.notNull())
      .addColumn('redirect_url', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
      .addColumn('block_seconds', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('waf_acl_rules_module').on('waf_acl_rules').columns(['module_id', 'priority']).execute();
    await db.schema
      .createTable('waf_acl_domains')
      .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
      .addColumn('module_id', 'integer', (c) => c.notNull().references('waf_acl_modules.id').onDelete('cascade'))
      .execute();
    await withId(db.schema.createTable('site_anticc_rules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('url_regex', 'varchar(512)', (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addColumn('times', 'integer', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('site_anticc_rules').execute();
    await db.schema.dropTable('waf_acl_domains').execute();
    await db.schema.dropTable('waf_acl_rules').execute();
    await db.schema.dropTable('waf_acl_modules').execute();
  },
};
