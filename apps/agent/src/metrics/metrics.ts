import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Applier } from '../sync/applier';

/**
 * The agent's Prometheus metrics (README "Metrics"): the process's own, applies by outcome (pushed data, reload,
 * failed) and their time, the revision serving, log lines shipped and failed shipments per log, reports sent.
 */
export function createAgentMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let applier: Applier | undefined;
  return {
    registry,
    /** The applier whose state the revision gauges read. */
    watch: (a: Applier) => void (applier = a),
    applies: new Counter({ name: 'edgekeep_agent_applies_total', help: 'Desired states applied, by outcome (data: pushed without a reload, reload, failed)', labelNames: ['outcome'] as const, registers }),
    applyDuration: new Histogram({
      name: 'edgekeep_agent_apply_duration_seconds',
      help: 'Time an apply took, by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    appliedRevision: new Gauge({
      name: 'edgekeep_agent_applied_revision',
      help: 'The desired-state revision this node serves (0: none yet)',
      registers,
      collect() {
        this.set(applier?.status().appliedRevision ?? 0);
      },
    }),
    applyFailing: new Gauge({
      name: 'edgekeep_agent_apply_failing',
      help: "1 while the newest desired state did not apply (the node serves the last good one)",
      registers,
      collect() {
        this.set(applier?.status().applyError ? 1 : 0);
      },
    }),
    linesShipped: new Counter({ name: 'edgekeep_agent_log_lines_shipped_total', help: 'Log lines the control plane acknowledged, by log', labelNames: ['log'] as const, registers }),
    shipFailures: new Counter({ name: 'edgekeep_agent_log_ship_failures_total', help: 'Log batches that failed to ship (retried), by log', labelNames: ['log'] as const, registers }),
    reports: new Counter({ name: 'edgekeep_agent_reports_total', help: 'Reports to the control plane, by outcome (ok, failed)', labelNames: ['outcome'] as const, registers }),
  };
}
export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
