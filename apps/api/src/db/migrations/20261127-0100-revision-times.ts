import type { MigrationStep } from './helpers';

/** When a zone's desired state took its current revision: how long its nodes take to apply it is measured from here. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema.alterTable('zones').addColumn('revision_at', 'varchar(32)').execute();
  },
  async down(db) {
    await db.schema.alterTable('zones').dropColumn('revision_at').execute();
  },
};
