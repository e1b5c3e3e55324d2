import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Named groups of a client's monitors. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('monitor_groups'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('monitor_group_members')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('monitor_groups.id').onDelete('cascade'))
      .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('monitor_group_members_pk', ['group_id', 'monitor_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('monitor_group_members').execute();
    await db.schema.dropTable('monitor_groups').execute();
  },
};
