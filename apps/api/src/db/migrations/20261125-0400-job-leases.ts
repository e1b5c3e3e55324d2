import type { MigrationStep } from './helpers';

/** One row per periodic job: who holds its lease, until when, and when it is next due (across API instances). */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('holder', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('lease_until', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('next_due', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('last_started_at', 'varchar(32)')
      .addColumn('last_finished_at', 'varchar(32)')
      .addColumn('last_error', 'text')
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('job_leases').execute();
  },
};
