import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/**
 * Conditions on IP list entries (url prefix, methods, port); the site's other firewall rules (region, user agent,
 * anti-header, rate limit, frequency, abuse score, layer-4 lists) as one JSON body per rule; the per-site
 * firewall settings; the addresses edge nodes report blocked, and the blocks lifted from the console.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema.alterTable('site_ip_rules').addColumn('url', 'varchar(256)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('site_ip_rules').addColumn('methods', 'varchar(100)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('site_ip_rules').addColumn('port', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await withId(db.schema.createTable('site_firewall_rules'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('site_firewall_rules_site').on('site_firewall_rules').columns(['site_id', 'kind']).execute();
    await db.schema
      .createTable('site_firewall_settings')
      .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
      .addColumn('advance', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await withId(db.schema.createTable('blocked_ips'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('cause', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('reported_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('blocked_ips_unique', ['site_id', 'node_id', 'ip'])
      .execute();
    await withId(db.schema.createTable('blocked_ip_lifts'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('ip', 'varchar(64)')
      .addColumn('lifted_at', 'integer', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('blocked_ip_lifts').execute();
    await db.schema.dropTable('blocked_ips').execute();
    await db.schema.dropTable('site_firewall_settings').execute();
    await db.schema.dropTable('site_firewall_rules').execute();
    await db.schema.alterTable('site_ip_rules').dropColumn('port').execute();
    await db.schema.alterTable('site_ip_rules').dropColumn('methods').execute();
    await db.schema.alterTable('site_ip_rules').dropColumn('url').execute();
  },
};
