import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** A client's announcements to its users, shown while now is inside [start_time, end_time]. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('announcements'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('title', 'varchar(256)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
      .addColumn('end_time', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('announcements_client_window').on('announcements').columns(['client_id', 'start_time', 'end_time']).execute();
  },
  async down(db) {
    await db.schema.dropTable('announcements').execute();
  },
};
