import type { Db } from '../src/db';

/**
 * Tables that every call writes to, that only hold sign-in state, or that a worker derives from the others (the DNS
 * resolutions follow the zones' revisions; the sites' traffic states follow their traffic; the scheduler's leases;
 * notices that workers queue, deliver and watch for):
 * not tenant data.
 */
const SKIPPED = /^(job_leases|notify_queue|notify_watch|audit_logs|sessions|refresh_tokens|login_challenges|auth_failures|known_addresses|mail_tokens|dns_resolutions|dns_resolution_zones|site_traffic_states|kysely_migration.*)$/;
/** Columns that change with time alone. */
const VOLATILE = /(_at|_seen|_time)$/;
/** Columns that the app's own workers write (probes of monitored nodes). */
const WORKER_COLUMNS: Record<string, RegExp> = { monitors: /^(status|last_error)$/ };

/** Every row of every tenant-data table, timestamps left out, as one comparable text per table. */
export async function snapshotOf(db: Db) {
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => !SKIPPED.test(n));
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table as 'accounts').selectAll().execute()));
  return Object.fromEntries(
    tables.map((table, i) => [
      table,
      rows[i].map((r) => JSON.stringify(Object.entries(r).filter(([k]) => !VOLATILE.test(k) && !WORKER_COLUMNS[table]?.test(k)))).sort(),
    ]),
  );
}

/** A snapshot once the app's workers are done: two taken a moment apart are the same (waits up to 10 s). */
export async function settledSnapshotOf(db: Db) {
  let last = await snapshotOf(db);
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = await snapshotOf(db);
    if (changesBetween(last, next).length === 0) return next;
    last = next;
  }
  throw new Error(`the database does not settle: ${changesBetween(last, await snapshotOf(db)).join('; ')}`);
}

/** The tables whose rows differ between two snapshots, each with a row that was added or removed. */
export function changesBetween(before: Record<string, string[]>, after: Record<string, string[]>) {
  const changes: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Set(before[table] ?? []);
    const is = new Set(after[table] ?? []);
    const gone = [...was].find((r) => !is.has(r));
    const added = [...is].find((r) => !was.has(r));
    if (gone || added) changes.push(`${table}: ${gone ? `-${gone.slice(0, 160)}` : ''} ${added ? `+${added.slice(0, 160)}` : ''}`);
  }
  return changes;
}
