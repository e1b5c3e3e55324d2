import { withId, type MigrationStep } from './helpers';

/** The client's branding (texts and images), its settings kept as JSON by name, and its default error pages. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('client_settings')
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('client_settings_pk', ['client_id', 'name'])
      .execute();
    await db.schema
      .createTable('branding_images')
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('field', 'varchar(32)', (c) => c.notNull())
      .addColumn('mime_type', 'varchar(64)', (c) => c.notNull())
      .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('etag', 'varchar(64)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('branding_images_pk', ['client_id', 'field'])
      .execute();
    await withId(db.schema.createTable('client_error_pages'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('client_error_pages_status', ['client_id', 'status'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('client_error_pages').execute();
    await db.schema.dropTable('branding_images').execute();
    await db.schema.dropTable('client_settings').execute();
  },
};
