import type { MigrationStep } from './helpers';
import { withId } from './helpers';

const DOMAIN_COLUMNS = ['cname_status', 'cname_checked_at', 'auto_ssl', 'balance', 'port_map'] as const;
const UPSTREAM_COLUMNS = ['hash', 'keepalive'] as const;

/** Domain settings (CNAME check, auto-SSL flag, load balancing, port mapping), origin hash and keepalive, layer-4 ports. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema.alterTable('domains').addColumn('cname_status', 'varchar(16)', (c) => c.notNull().defaultTo('pending')).execute();
    await db.schema.alterTable('domains').addColumn('cname_checked_at', 'varchar(32)').execute();
    await db.schema.alterTable('domains').addColumn('auto_ssl', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('domains').addColumn('balance', 'varchar(16)', (c) => c.notNull().defaultTo('round_robin')).execute();
    await db.schema.alterTable('domains').addColumn('port_map', 'text', (c) => c.notNull().defaultTo('{"enabled":false,"rules":[]}')).execute();
    await db.schema.alterTable('upstreams').addColumn('hash', 'varchar(256)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('upstreams').addColumn('keepalive', 'integer', (c) => c.notNull().defaultTo(16)).execute();

    await withId(db.schema.createTable('l4_ports'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('protocol', 'varchar(8)', (c) => c.notNull().defaultTo('tcp'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('l4_ports_site').on('l4_ports').column('site_id').execute();
    await db.schema.createIndex('l4_ports_port').on('l4_ports').column('port').execute();

    await withId(db.schema.createTable('l4_upstreams'), dialect)
      .addColumn('port_id', 'integer', (c) => c.notNull().references('l4_ports.id').onDelete('cascade'))
      .addColumn('host', 'varchar(253)', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('weight', 'integer', (c) => c.notNull())
      .addColumn('backup', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_fails', 'integer', (c) => c.notNull())
      .addColumn('fail_timeout', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('l4_upstreams_port').on('l4_upstreams').column('port_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('l4_upstreams').execute();
    await db.schema.dropTable('l4_ports').execute();
    for (const c of UPSTREAM_COLUMNS) await db.schema.alterTable('upstreams').dropColumn(c).execute();
    for (const c of DOMAIN_COLUMNS) await db.schema.alterTable('domains').dropColumn(c).execute();
  },
};
