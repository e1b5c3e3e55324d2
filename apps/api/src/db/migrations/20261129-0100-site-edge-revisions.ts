import type { MigrationStep } from './helpers';

/**
 * Which revision last changed what: `sites.edge_revision`, the last that changed only some sites of the zone, on
 * those sites; `zones.sites_revision`, the last that may have changed any site of the zone. A node's state is built
 * again only for the sites changed since the build it follows (agent-gateway/state.ts).
 */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema.alterTable('sites').addColumn('edge_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('zones').addColumn('sites_revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db) {
    await db.schema.alterTable('sites').dropColumn('edge_revision').execute();
    await db.schema.alterTable('zones').dropColumn('sites_revision').execute();
  },
};
