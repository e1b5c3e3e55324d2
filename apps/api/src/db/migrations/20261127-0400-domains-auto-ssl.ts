import type { MigrationStep } from './helpers';

/** The automatic-certificate queue finds the few domains with auto SSL on every few seconds without reading them all. */
export const migration: MigrationStep = {
  async up(db) {
    await db.schema.createIndex('domains_auto_ssl').on('domains').columns(['auto_ssl', 'status']).execute();
  },
  async down(db) {
    await db.schema.dropIndex('domains_auto_ssl').execute();
  },
};
