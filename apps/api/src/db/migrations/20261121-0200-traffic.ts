import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Extra traffic plans (GB added to a site's allowance for one month) and each site's traffic state as last
 * evaluated against the analytics store; `limited` is what the edge enforces.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('extra_traffic_plans'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('traffic_gb', 'integer', (c) => c.notNull())
      .addColumn('price', 'double precision', (c) => c.notNull())
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('month', 'integer', (c) => c.notNull())
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('extra_traffic_plans_site_month').on('extra_traffic_plans').columns(['site_id', 'year', 'month']).execute();
    await db.schema
      .createTable('site_traffic_states')
      .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('limited', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('evaluated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    for (const t of ['site_traffic_states', 'extra_traffic_plans']) await db.schema.dropTable(t).execute();
  },
};
