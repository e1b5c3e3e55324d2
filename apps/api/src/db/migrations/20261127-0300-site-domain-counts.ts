import { sql } from 'kysely';
import type { MigrationStep } from './helpers';

/**
 * Each site's domain count, kept by the database itself as domains come, go or move (whoever writes them), so the
 * lists answer a site's count and a tenant's total without counting domains.
 */
export const migration: MigrationStep = {
  async up(db, dialect) {
    await db.schema.alterTable('sites').addColumn('domain_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update sites set domain_count = (select count(*) from domains where domains.site_id = sites.id)`.execute(db);
    if (dialect === 'postgres') {
      await sql`create function domains_count() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') then update sites set domain_count = domain_count - 1 where id = old.site_id; end if;
          if tg_op in ('INSERT', 'UPDATE') then update sites set domain_count = domain_count + 1 where id = new.site_id; end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger domains_count after insert or delete or update of site_id on domains for each row execute function domains_count()`.execute(db);
      return;
    }
    await sql`create trigger domains_count_insert after insert on domains begin
      update sites set domain_count = domain_count + 1 where id = new.site_id; end`.execute(db);
    await sql`create trigger domains_count_delete after delete on domains begin
      update sites set domain_count = domain_count - 1 where id = old.site_id; end`.execute(db);
    await sql`create trigger domains_count_move after update of site_id on domains begin
      update sites set domain_count = domain_count - 1 where id = old.site_id;
      update sites set domain_count = domain_count + 1 where id = new.site_id; end`.execute(db);
  },
  async down(db, dialect) {
    if (dialect === 'postgres') {
      await sql`drop trigger domains_count on domains`.execute(db);
      await sql`drop function domains_count()`.execute(db);
    } else {
      for (const name of ['domains_count_insert', 'domains_count_delete', 'domains_count_move']) await sql`drop trigger ${sql.id(name)}`.execute(db);
    }
    await db.schema.alterTable('sites').dropColumn('domain_count').execute();
  },
};
