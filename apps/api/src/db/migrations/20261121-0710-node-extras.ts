import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Node extras: sub nodes (further addresses of a node's machine), per-node monitor thresholds and Geneva
 * setting, and the DNS resolution table: for each site and line, the addresses its CNAME answers with.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await withId(db.schema.createTable('node_sub_nodes'), dialect)
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id').onDelete('cascade'))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('memo', 'varchar(1024)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('node_sub_nodes_zone_ip', ['zone_id', 'ip'])
      .execute();
    await db.schema.createIndex('node_sub_nodes_node').on('node_sub_nodes').column('node_id').execute();
    await db.schema.alterTable('nodes').addColumn('monitor', 'text').execute();
    await db.schema.alterTable('nodes').addColumn('geneva', 'text').execute();
    await db.schema.alterTable('nodes').addColumn('monitor_breach', 'varchar(256)').execute();
    /** Whether the node answered in the resolution table when it was last computed. */
    await db.schema.alterTable('nodes').addColumn('resolvable', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await withId(db.schema.createTable('dns_resolutions'), dialect)
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id').onDelete('cascade'))
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('node_groups.id').onDelete('cascade'))
      .addColumn('line', 'varchar(16)', (c) => c.notNull())
      .addColumn('cname', 'varchar(253)', (c) => c.notNull())
      .addColumn('records', 'text', (c) => c.notNull())
      .addColumn('backup', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('dns_resolutions_site_line', ['site_id', 'line'])
      .execute();
    await db.schema.createIndex('dns_resolutions_zone').on('dns_resolutions').column('zone_id').execute();
    /** The zone revision each zone's rows were computed at: a newer revision means they are due again. */
    await db.schema
      .createTable('dns_resolution_zones')
      .addColumn('zone_id', 'integer', (c) => c.primaryKey().references('zones.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('computed_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('dns_resolution_zones').execute();
    await db.schema.dropTable('dns_resolutions').execute();
    await db.schema.alterTable('nodes').dropColumn('resolvable').execute();
    await db.schema.alterTable('nodes').dropColumn('monitor_breach').execute();
    await db.schema.alterTable('nodes').dropColumn('geneva').execute();
    await db.schema.alterTable('nodes').dropColumn('monitor').execute();
    await db.schema.dropTable('node_sub_nodes').execute();
  },
};
