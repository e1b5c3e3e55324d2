import type { MigrationStep } from './helpers';

/** The sub-users a user shares its sites with; a sub-user reaches only the sites shared with it. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('site_users')
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('site_users_pk', ['site_id', 'account_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('site_users').execute();
  },
};
