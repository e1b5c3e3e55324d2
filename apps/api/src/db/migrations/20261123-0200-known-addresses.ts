import type { MigrationStep } from './helpers';

/** The addresses each account completed a sign-in from: their attempts are throttled apart from strangers'. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('known_addresses')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('known_addresses_pk', ['account_id', 'ip'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('known_addresses').execute();
  },
};
