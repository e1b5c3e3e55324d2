import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Database backup settings per client (spec §3), and node upgrades with the steps their agents report (spec §4). */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('db_backup_settings')
      .addColumn('client_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('period', 'varchar(16)', (c) => c.notNull())
      .addColumn('time', 'varchar(5)', (c) => c.notNull())
      .addColumn('path', 'varchar(256)', (c) => c.notNull())
      .addColumn('retention', 'integer', (c) => c.notNull())
      .addColumn('last_backup_at', 'varchar(32)')
      .addColumn('last_status', 'varchar(16)')
      .addColumn('last_error', 'text')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('node_upgrades'), dialect)
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('command_id', 'integer')
      .addColumn('from_version', 'varchar(64)')
      .addColumn('to_version', 'varchar(64)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('node_upgrades_node').on('node_upgrades').columns(['node_id', 'id']).execute();
    await withId(db.schema.createTable('node_upgrade_logs'), dialect)
      .addColumn('upgrade_id', 'integer', (c) => c.notNull().references('node_upgrades.id').onDelete('cascade'))
      .addColumn('at', 'varchar(32)', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer')
      .execute();
    await db.schema.createIndex('node_upgrade_logs_upgrade').on('node_upgrade_logs').columns(['upgrade_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('node_upgrade_logs').execute();
    await db.schema.dropTable('node_upgrades').execute();
    await db.schema.dropTable('db_backup_settings').execute();
  },
};
