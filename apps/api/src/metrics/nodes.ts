import { Gauge, type Registry } from 'prom-client';
import type { Db, Dialect } from '../db';
import { enrolledNodeReports } from '../modules/nodes/repo';
import { OFFLINE_AFTER_SECONDS } from '../modules/resolutions/health';

const LABELS = ['node', 'zone'] as const;

/**
 * Each enrolled node's last report, read from the database when scraped (so every API instance answers the same):
 * whether it reports, whether nginx runs, whether its last apply succeeded, and whether it serves its zone's newest
 * desired state.
 */
export function nodeGauges({ db, dialect, registers }: { db: Db; dialect: Dialect; registers: Registry[] }) {
  // one query fills all four: a scrape collects them at once, and they share it
  let loading: Promise<void> | undefined;
  // with the database out of reach the node gauges are left empty and the rest is still served
  const collect = (): Promise<void> => (loading ??= load().catch(() => all.forEach((g: Gauge) => g.reset())).finally(() => (loading = undefined)));
  const gauge = (name: string, help: string): Gauge<(typeof LABELS)[number]> => new Gauge({ name, help, labelNames: LABELS, registers, collect });
  const reporting = gauge('edgekeep_node_reporting', `1 while the node has reported within ${OFFLINE_AFTER_SECONDS} s`);
  const nginx = gauge('edgekeep_node_nginx_running', "1 when the node's last report says nginx runs");
  const applyOk = gauge('edgekeep_node_apply_ok', "1 when the node's last apply succeeded");
  const current = gauge('edgekeep_node_up_to_date', "1 when the node has applied its zone's newest revision");
  const all = [reporting, nginx, applyOk, current];
  async function load() {
    const rows = await enrolledNodeReports(db, dialect);
    for (const g of all) g.reset();
    const now = Date.now();
    for (const r of rows) {
      const labels = { node: r.node_uid, zone: r.zone };
      const seen = r.last_report_at !== null && now - Date.parse(r.last_report_at) <= OFFLINE_AFTER_SECONDS * 1000;
      reporting.set(labels, seen ? 1 : 0);
      nginx.set(labels, String(r.nginx) === 'true' || String(r.nginx) === '1' ? 1 : 0);
      applyOk.set(labels, r.last_report_at !== null && r.apply_error === null ? 1 : 0);
      current.set(labels, r.applied_revision !== null && r.applied_revision >= r.revision ? 1 : 0);
    }
  }
}
