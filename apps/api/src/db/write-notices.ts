import { sql, type Kysely } from 'kysely';

/** The channel on which PostgreSQL tells the name of each table written, once the write is committed. */
export const WRITES_CHANNEL = 'edgekeep_writes';
/** The application name of every connection of EdgeKeep's: each tells its own writes (`writeTellingClient`). */
export const APP_NAME = 'edgekeep';
const TRIGGER = 'edgekeep_written_outside';
/** Taken while the triggers are made, so that instances starting together make them once. */
const LOCK_KEY = 0x65_6b_77_6e; // 'ekwn'

const missing = (db: Kysely<unknown>) =>
  sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
      AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = ${TRIGGER})`.execute(db);

/**
 * PostgreSQL: every statement of a connection not EdgeKeep's (psql, a restore) that writes a table of the schema, its
 * triggers' and foreign keys' writes too, notifies WRITES_CHANNEL with the table's name, which listeners get once its
 * transaction commits (`hearWrites`). EdgeKeep's own connections tell their writes after the commit instead
 * (`writeTellingClient`): a notice within a transaction takes PostgreSQL's one notice lock until the commit is on disk,
 * and every other writer that notifies waits for it. A statement-level trigger per table whose condition is all an
 * EdgeKeep statement pays, made for each table that lacks one: after the migrations, so that a table a later
 * migration adds has it too.
 */
export async function noticeWrites(db: Kysely<unknown>) {
  if (!(await missing(db)).rows.length) return;
  await db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    await sql`
      CREATE OR REPLACE FUNCTION ${sql.id(TRIGGER)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify(${sql.lit(WRITES_CHANNEL)}, TG_TABLE_NAME); RETURN NULL; END $$`.execute(tx);
    for (const { name } of (await missing(tx)).rows) {
      await sql`CREATE TRIGGER ${sql.id(TRIGGER)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.id(name)} FOR EACH STATEMENT
        WHEN (current_setting('application_name') NOT LIKE ${sql.lit(APP_NAME + '%')}) EXECUTE FUNCTION ${sql.id(TRIGGER)}()`.execute(tx);
    }
  });
}
