import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** One monitor per node: what the API probes, how often, what it last saw, and what it does on failure. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('monitors'), dialect)
      .addColumn('node_id', 'integer', (c) => c.notNull().unique().references('nodes.id').onDelete('cascade'))
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('url', 'varchar(512)', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'varchar(3)', (c) => c.notNull())
      .addColumn('content', 'varchar(256)', (c) => c.notNull())
      .addColumn('interval', 'integer', (c) => c.notNull())
      .addColumn('failure_action', 'varchar(8)', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'varchar(512)')
      .addColumn('checked_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('monitors').execute();
  },
};
