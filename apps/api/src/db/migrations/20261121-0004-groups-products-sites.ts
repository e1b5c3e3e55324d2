import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Resolution groups (lines) of a zone's nodes, products made on a group, and sites made from a product. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('node_groups'), dialect)
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('line', 'varchar(16)', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dns_resolve', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('node_group_members')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('node_groups.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('node_group_members_pk', ['group_id', 'node_id'])
      .execute();

    await withId(db.schema.createTable('products'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('node_groups.id'))
      .addColumn('backup_group_id', 'integer', (c) => c.references('node_groups.id'))
      .addColumn('limits', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('sites'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('cname', 'varchar(253)', (c) => c.notNull().unique())
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sites_user').on('sites').column('user_id').execute();
    await db.schema.createIndex('sites_client').on('sites').column('client_id').execute();
  },
  async down(db) {
    for (const t of ['sites', 'products', 'node_group_members', 'node_groups']) await db.schema.dropTable(t).execute();
  },
};
