import { sql } from 'kysely';
import type { Db } from '../../db';

/** Unscoped, for the health check: a round trip to the database. */
export const pingDatabase = (db: Db) => sql`select 1`.execute(db);
