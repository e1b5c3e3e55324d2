import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Log export files an account asked for (spec §3 Export file, §4 its states); rows stay after deletion. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('log_exports'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('tier', 'varchar(16)', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
      .addColumn('end_time', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .addColumn('rows', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('total_rows', 'bigint')
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('file_name', 'varchar(128)', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('log_exports_account_created').on('log_exports').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('log_exports_status').on('log_exports').column('status').execute();
  },
  async down(db) {
    await db.schema.dropTable('log_exports').execute();
  },
};
