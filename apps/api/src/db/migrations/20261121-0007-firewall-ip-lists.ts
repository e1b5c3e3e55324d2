import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** A site's IP blacklist and whitelist entries. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('site_ip_rules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('list', 'varchar(16)', (c) => c.notNull())
      .addColumn('ip', 'varchar(100)', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('site_ip_rules_unique', ['site_id', 'list', 'ip'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('site_ip_rules').execute();
  },
};
