import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, Dialect } from '../db';
import { nodeGauges } from './nodes';

/** Latency buckets in seconds, from a cached read to a long-polled watch. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The API's Prometheus metrics (README "Metrics"): the process's own (CPU, memory, event loop, GC), requests per
 * route, agents watching, desired-state propagation, log ingest, scheduled jobs, and each node's last report (read
 * from the database when scraped, so every instance answers the same).
 */
export function createMetrics({ db, dialect }: { db: Db; dialect: Dialect }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  nodeGauges({ db, dialect, registers });
  return {
    registry,
    httpRequests: new Counter({
      name: 'edgekeep_http_requests_total',
      help: 'Requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'edgekeep_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method and route pattern',
      labelNames: ['method', 'route'] as const,
      buckets: SECONDS,
      registers,
    }),
    keptAnswers: new Counter({
      name: 'edgekeep_kept_answers_total',
      help: 'Calls of a route whose answer is kept, by route and outcome (sent: the kept answer sent again; read: read afresh)',
      labelNames: ['route', 'outcome'] as const,
      registers,
    }),
    watchers: new Gauge({ name: 'edgekeep_agent_watchers', help: 'Agent watches (long polls) waiting on this instance', registers }),
    propagation: new Histogram({
      name: 'edgekeep_propagation_seconds',
      help: "Time from a zone's new desired-state revision to a node reporting it applied",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers,
    }),
    ingestLines: new Counter({
      name: 'edgekeep_ingest_lines_total',
      help: 'Log lines received from nodes, by log (access, stream) and outcome (stored, skipped: invalid, another zone or sent before)',
      labelNames: ['log', 'outcome'] as const,
      registers,
    }),
    ingestBatches: new Counter({ name: 'edgekeep_ingest_batches_total', help: 'Log batches received from nodes, by log', labelNames: ['log'] as const, registers }),
    ingestLag: new Histogram({
      name: 'edgekeep_ingest_lag_seconds',
      help: "Age of a batch's newest line when the batch is stored, by log",
      labelNames: ['log'] as const,
      buckets: [1, 2, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    jobRuns: new Counter({
      name: 'edgekeep_job_runs_total',
      help: 'Scheduled job runs on this instance, by job and outcome (ok, failed)',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    jobDuration: new Histogram({ name: 'edgekeep_job_duration_seconds', help: 'Time a scheduled job run took, by job', labelNames: ['job'] as const, buckets: SECONDS, registers }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
