import type { MigrationStep } from './helpers';

/** A site's domain list in its default order (newest first) reads this index in order, without sorting the site's domains. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema.createIndex('domains_site_created').on('domains').columns(['site_id', 'created_at', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropIndex('domains_site_created').execute();
  },
};
