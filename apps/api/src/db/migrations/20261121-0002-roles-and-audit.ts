import { sql } from 'kysely';
import type { MigrationStep } from './helpers';
import { withId } from './helpers';

/** Custom roles per tenant, the operation log, and each account's path of ancestors. */
export const migration: MigrationStep = {
  async up(db, dialect) {
    // `/a/b/` lists the ancestors of an account, nearest last; the subtree of X is every path containing `/X/`.
    await db.schema.alterTable('accounts').addColumn('tree_path', 'varchar(512)', (c) => c.notNull().defaultTo('/')).execute();
    const rows = await sql<{ id: number; up: number | null }>`
      select id, coalesce(parent_user_id, parent_client_id, client_id) as up from accounts order by id`.execute(db);
    const paths = new Map<number, string>();
    for (const { id, up } of rows.rows) {
      const path = up === null ? '/' : `${paths.get(up) ?? '/'}${up}/`;
      paths.set(id, path);
      await sql`update accounts set tree_path = ${path} where id = ${id}`.execute(db);
    }
    await db.schema.createIndex('accounts_tree_path').on('accounts').column('tree_path').execute();

    await withId(db.schema.createTable('roles'), dialect)
      .addColumn('auth', 'varchar(16)', (c) => c.notNull())
      .addColumn('owner_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('roles_owner').on('roles').columns(['auth', 'owner_id']).execute();

    await withId(db.schema.createTable('audit_logs'), dialect)
      .addColumn('type', 'varchar(1)', (c) => c.notNull())
      .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('account_name', 'varchar(256)')
      .addColumn('proxy_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('proxy_name', 'varchar(256)')
      .addColumn('method', 'varchar(8)', (c) => c.notNull())
      .addColumn('url', 'varchar(1024)', (c) => c.notNull())
      .addColumn('req_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('code', 'integer')
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('body', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_logs_account_time').on('audit_logs').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('audit_logs_time').on('audit_logs').column('created_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('audit_logs').execute();
    await db.schema.dropTable('roles').execute();
    await db.schema.dropIndex('accounts_tree_path').execute();
    await db.schema.alterTable('accounts').dropColumn('tree_path').execute();
  },
};
