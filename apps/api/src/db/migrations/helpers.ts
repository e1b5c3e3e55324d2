import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../index';

/** An auto-incrementing integer primary key on either dialect. */
export const withId = <T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect) =>
  dialect === 'postgres'
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

export type MigrationStep = {
  up: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
  down: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
};
