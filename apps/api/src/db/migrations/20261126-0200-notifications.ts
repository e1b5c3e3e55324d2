import { withId, type MigrationStep } from './helpers';

/**
 * Client-wide system settings (one JSON value per name), each account's chat-bot channel and notice choices, the
 * queue of notices to deliver, and the last seen state of what a sweep watches (node online, certificate expiry).
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema
      .createTable('system_settings')
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('system_settings_pk', ['owner_id', 'name'])
      .execute();
    await db.schema
      .createTable('notify_bots')
      .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('token_sealed', 'text')
      .addColumn('register_command', 'varchar(100)', (c) => c.notNull())
      .addColumn('chat_id', 'varchar(64)')
      .addColumn('update_offset', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('notify_preferences')
      .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('email', 'integer', (c) => c.notNull())
      .addColumn('bot', 'integer', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('notify_queue'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('channel', 'varchar(16)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('sent_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('notify_queue_due').on('notify_queue').columns(['status', 'next_attempt_at']).execute();
    await db.schema
      .createTable('notify_watch')
      .addColumn('subject', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('state', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    for (const t of ['notify_watch', 'notify_queue', 'notify_preferences', 'notify_bots', 'system_settings']) await db.schema.dropTable(t).execute();
  },
};
