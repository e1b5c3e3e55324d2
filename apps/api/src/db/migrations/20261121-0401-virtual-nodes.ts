import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * A virtual node is a node row (virtual = 1, uid `v-…`) that resolution groups can hold like any node; these
 * tables keep its switching interval and the records it answers with: CNAMEs, or IPs (of a node of the zone
 * or any address).
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('virtual_nodes')
      .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('switch_interval', 'integer', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('virtual_node_records'), dialect)
      .addColumn('virtual_node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('type', 'varchar(8)', (c) => c.notNull())
      .addColumn('value', 'varchar(253)', (c) => c.notNull())
      .addColumn('node_id', 'integer', (c) => c.references('nodes.id'))
      .execute();
    await db.schema.createIndex('virtual_node_records_node').on('virtual_node_records').column('node_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('virtual_node_records').execute();
    await db.schema.dropTable('virtual_nodes').execute();
  },
};
