import { sql } from 'kysely';
import type { MigrationStep } from './helpers';

/**
 * A zone's revision, when it took it and the last revision that may have changed any of its sites, in a table of their
 * own: every change bumps them, and on the `zones` row the bump dropped every kept answer that read the zone (a site's
 * options and ports tabs read its settings), though none of them shows the revision.
 */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('zone_revisions')
      .addColumn('zone_id', 'integer', (c) => c.primaryKey().references('zones.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('revision_at', 'varchar(32)')
      .addColumn('sites_revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`INSERT INTO zone_revisions (zone_id, revision, revision_at, sites_revision) SELECT id, revision, revision_at, sites_revision FROM zones`.execute(db);
    for (const column of ['revision', 'revision_at', 'sites_revision']) await db.schema.alterTable('zones').dropColumn(column).execute();
  },
  async down(db) {
    await db.schema.alterTable('zones').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await db.schema.alterTable('zones').addColumn('revision_at', 'varchar(32)').execute();
    await db.schema.alterTable('zones').addColumn('sites_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    for (const column of ['revision', 'revision_at', 'sites_revision']) {
      await sql`UPDATE zones SET ${sql.ref(column)} = (SELECT ${sql.ref(column)} FROM zone_revisions WHERE zone_id = zones.id)`.execute(db);
    }
    await db.schema.dropTable('zone_revisions').execute();
  },
};
