import { sql, type Kysely } from 'kysely';

/** The channel on which PostgreSQL tells the name of each table written, once the write is committed. */
export const WRITES_CHANNEL = 'edgekeep_writes';
const TRIGGER = 'edgekeep_written';
/** Taken while the triggers are made, so that instances starting together make them once. */
const LOCK_KEY = 0x65_6b_77_6e; // 'ekwn'

const missing = (db: Kysely<unknown>) =>
  sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
      AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = ${TRIGGER})`.execute(db);

/**
 * PostgreSQL: every statement that writes a table of the schema (an instance's, the command line's, a trigger's or
 * a foreign key's) notifies WRITES_CHANNEL with the table's name, which listeners get once its transaction commits
 * (`hearWrites`). A statement-level trigger per table, made for each table that lacks one: after the migrations, so
 * that a table a later migration adds has it too.
 */
export async function noticeWrites(db: Kysely<unknown>) {
  if (!(await missing(db)).rows.length) return;
  await db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    await sql`
      CREATE OR REPLACE FUNCTION ${sql.id(TRIGGER)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify(${sql.lit(WRITES_CHANNEL)}, TG_TABLE_NAME); RETURN NULL; END $$`.execute(tx);
    for (const { name } of (await missing(tx)).rows) {
      await sql`CREATE TRIGGER ${sql.id(TRIGGER)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.id(name)} FOR EACH STATEMENT EXECUTE FUNCTION ${sql.id(TRIGGER)}()`.execute(tx);
    }
  });
}
