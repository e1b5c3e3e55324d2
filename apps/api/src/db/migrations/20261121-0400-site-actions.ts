import { sql } from 'kysely';
import type { MigrationStep } from './helpers';

/**
 * A site keeps the group it resolves to (taken from its product, re-derived by product/refresh), may be forced
 * onto its product's backup group, and may narrow its product's limits.
 */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema.alterTable('sites').addColumn('group_id', 'integer', (c) => c.references('node_groups.id')).execute();
    await db.schema.alterTable('sites').addColumn('force_backup', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('sites').addColumn('limitations', 'text', (c) => c.notNull().defaultTo('{}')).execute();
    await sql`update sites set group_id = (select group_id from products where products.id = sites.product_id)`.execute(db);
  },
  async down(db) {
    for (const c of ['limitations', 'force_backup', 'group_id']) await db.schema.alterTable('sites').dropColumn(c).execute();
  },
};
