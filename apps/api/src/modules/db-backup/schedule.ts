/** The newest scheduled instant at or before `at` for a period and an HH:mm time (UTC); weekly is Monday, monthly the 1st. */
export function lastDue({ period, time, at }: { period: string; time: string; at: Date }) {
  const [hh, mm] = time.split(':').map(Number);
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), hh, mm));
  if (period === 'monthly') {
    d.setUTCDate(1);
    if (d > at) d.setUTCMonth(d.getUTCMonth() - 1);
    return d;
  }
  if (period === 'weekly') {
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    if (d > at) d.setUTCDate(d.getUTCDate() - 7);
    return d;
  }
  if (d > at) d.setUTCDate(d.getUTCDate() - 1);
  return d;
}

/** A backup is due when a scheduled instant has passed since the last run and since the setting was saved. */
export function isDue(row: { period: string; time: string; last_backup_at: string | null; updated_at: string }, at = new Date()) {
  const due = lastDue({ period: row.period, time: row.time, at }).toISOString();
  return due > row.updated_at && (!row.last_backup_at || due > row.last_backup_at);
}
