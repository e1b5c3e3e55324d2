import type { MigrationStep } from './helpers';

/** Each account's widget dashboard (client and admin areas), stored whole as JSON. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('dashboards')
      .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('layout', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('dashboards').execute();
  },
};
