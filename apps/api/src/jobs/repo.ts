import type { Db } from '../db';

/*
 * The jobs' lease rows, one per job name: unscoped, they are the scheduler's across every API instance on the
 * database. Times are ISO strings.
 */

/** Makes the job's lease row if it has none yet. */
export const ensureLease = (db: Db, name: string) => db.insertInto('job_leases').values({ name }).onConflict((oc) => oc.column('name').doNothing()).execute();

/**
 * Takes the job's lease for `holder` until `until` when no live lease holds it (and, unless `ignoreDue`, it is due
 * at `at`), setting when it is due next; answers whether it did.
 */
export async function claimLease(db: Db, o: { name: string; holder: string; at: string; until: string; nextDue: string; ignoreDue: boolean }) {
  let q = db
    .updateTable('job_leases')
    .set({ holder: o.holder, lease_until: o.until, next_due: o.nextDue, last_started_at: o.at })
    .where('name', '=', o.name)
    .where('lease_until', '<=', o.at);
  if (!o.ignoreDue) q = q.where('next_due', '<=', o.at);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends `holder`'s run of the job at `at`: the lease lapses, and the run and its error (if any) are counted. */
export const finishLease = (db: Db, o: { name: string; holder: string; at: string; error: string | null }) =>
  db
    .updateTable('job_leases')
    .set((eb) => ({
      lease_until: o.at,
      last_finished_at: o.at,
      last_error: o.error,
      runs: eb('runs', '+', 1),
      failures: o.error ? eb('failures', '+', 1) : eb.ref('failures'),
    }))
    .where('name', '=', o.name)
    .where('holder', '=', o.holder)
    .execute();
