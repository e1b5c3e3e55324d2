import { sql } from 'kysely';
import type { MigrationStep } from './helpers';

/**
 * Each site's domain version, raised by the database itself whenever one of its domains comes, goes or changes (and
 * when the site is renamed: a list sorted by site name changes order), so an ordered domain list kept by the API is
 * known to be current by reading the versions of the sites it covers.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema.alterTable('sites').addColumn('domains_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    if (dialect === 'postgres') {
      await sql`create function domains_version() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then update sites set domains_version = domains_version + 1 where id = old.site_id; return null; end if;
          update sites set domains_version = domains_version + 1 where id = new.site_id or (tg_op = 'UPDATE' and id = old.site_id);
          return null;
        end $$`.execute(db);
      await sql`create trigger domains_version after insert or delete or update on domains for each row execute function domains_version()`.execute(db);
      await sql`create function sites_renamed() returns trigger language plpgsql as $$
        begin new.domains_version = old.domains_version + 1; return new; end $$`.execute(db);
      await sql`create trigger sites_renamed before update of name on sites for each row when (old.name is distinct from new.name) execute function sites_renamed()`.execute(db);
      return;
    }
    await sql`create trigger domains_version_insert after insert on domains begin
      update sites set domains_version = domains_version + 1 where id = new.site_id; end`.execute(db);
    await sql`create trigger domains_version_delete after delete on domains begin
      update sites set domains_version = domains_version + 1 where id = old.site_id; end`.execute(db);
    await sql`create trigger domains_version_update after update on domains begin
      update sites set domains_version = domains_version + 1 where id in (old.site_id, new.site_id); end`.execute(db);
    await sql`create trigger sites_renamed after update of name on sites when old.name is not new.name begin
      update sites set domains_version = domains_version + 1 where id = new.id; end`.execute(db);
  },
  async down(db, dialect) {
    if (dialect === 'postgres') {
      await sql`drop trigger domains_version on domains`.execute(db);
      await sql`drop function domains_version()`.execute(db);
      await sql`drop trigger sites_renamed on sites`.execute(db);
      await sql`drop function sites_renamed()`.execute(db);
    } else {
      for (const name of ['domains_version_insert', 'domains_version_delete', 'domains_version_update', 'sites_renamed']) await sql`drop trigger ${sql.id(name)}`.execute(db);
    }
    await db.schema.alterTable('sites').dropColumn('domains_version').execute();
  },
};
