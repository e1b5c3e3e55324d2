import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Zones (with their settings and the revision of their desired state), sub-client assignments, nodes and their queued actions. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    // One counter for the whole platform, so a node that moves between zones never sees its revision go back.
    await db.schema.createTable('revisions').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('value', 'integer', (c) => c.notNull()).execute();
    await db.insertInto('revisions' as never).values({ id: 1, value: 1 } as never).execute();

    await withId(db.schema.createTable('zones'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('regions', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('zones_client_name', ['client_id', 'name'])
      .execute();

    await db.schema
      .createTable('zone_assignments')
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id').onDelete('cascade'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('zone_assignments_pk', ['zone_id', 'client_id'])
      .execute();

    await withId(db.schema.createTable('nodes'), dialect)
      .addColumn('zone_id', 'integer', (c) => c.notNull().references('zones.id'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('node_uid', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('type', 'varchar(8)', (c) => c.notNull())
      .addColumn('virtual', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('role', 'varchar(8)', (c) => c.notNull())
      .addColumn('port_type', 'integer', (c) => c.notNull())
      .addColumn('bandwidth', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cache_capacity', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('memo', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('enroll_token_hash', 'varchar(64)')
      .addColumn('enroll_expires_at', 'varchar(32)')
      .addColumn('credential_hash', 'varchar(64)')
      .addColumn('initialized_at', 'varchar(32)')
      .addColumn('version', 'varchar(64)')
      .addColumn('report', 'text')
      .addColumn('applied_revision', 'integer')
      .addColumn('apply_error', 'text')
      .addColumn('last_report_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nodes_zone').on('nodes').column('zone_id').execute();
    await db.schema.createIndex('nodes_credential').on('nodes').column('credential_hash').execute();

    await withId(db.schema.createTable('node_commands'), dialect)
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('args', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(8)', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('node_commands_node').on('node_commands').columns(['node_id', 'status']).execute();
  },
  async down(db) {
    for (const t of ['node_commands', 'nodes', 'zone_assignments', 'zones', 'revisions']) await db.schema.dropTable(t).execute();
  },
};
