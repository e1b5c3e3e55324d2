import { sql } from 'kysely';
import type { MigrationStep } from './helpers';

/**
 * A site's edge revision (the last revision that changed it alone) in a table of its own: every change of a site's
 * rules marks it, and on the `sites` row that mark dropped every kept answer that read sites (the console's lists),
 * though none of them shows it.
 */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema
      .createTable('site_edge_revisions')
      .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute();
    await sql`INSERT INTO site_edge_revisions (site_id, revision) SELECT id, edge_revision FROM sites WHERE edge_revision > 0`.execute(db);
    await db.schema.alterTable('sites').dropColumn('edge_revision').execute();
  },
  async down(db) {
    await db.schema.alterTable('sites').addColumn('edge_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`UPDATE sites SET edge_revision = (SELECT revision FROM site_edge_revisions WHERE site_id = sites.id) WHERE id IN (SELECT site_id FROM site_edge_revisions)`.execute(db);
    await db.schema.dropTable('site_edge_revisions').execute();
  },
};
