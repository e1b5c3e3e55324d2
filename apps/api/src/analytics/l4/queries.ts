import type { DuckDBConnection } from '@duckdb/node-api';
import { bucketing } from '../queries';
import { resolutionOf, rollupWhere } from '../scope';
import { binder, num, rows, type Params } from '../sql';
import { l4Rollup } from './schema';
import type { L4Dimension, L4Point, L4Row, L4Scope, L4Store } from './types';

/** The rollup rows of a dimension (protocol is a column of every row, kept under dim 'all'). */
const dimOf = (dimension?: L4Dimension) => (dimension && dimension !== 'protocol' ? dimension : 'all');
const keyOf = (dimension?: L4Dimension) => (dimension === 'protocol' ? 'protocol' : dimension ? 'value' : "''");

/** The WHERE of an L4 read: window, sites, outcomes, protocols, the dimension's rows and its keys. */
const where = (scope: L4Scope, params: Params, o: { dimension?: L4Dimension; keys?: string[] } = {}) => {
  const bind = binder(params);
  const parts = [rollupWhere(scope, params), `dim = '${dimOf(o.dimension)}'`];
  if (scope.outcomes !== 'all') parts.push(`outcome = '${scope.outcomes === 'pass' ? 'pass' : 'drop'}'`);
  if (scope.protocols?.length) parts.push(`protocol IN (${scope.protocols.map((p) => bind(p)).join(', ')})`);
  if (o.keys) parts.push(o.keys.length ? `${keyOf(o.dimension)} IN (${o.keys.map((k) => bind(k)).join(', ')})` : 'false');
  return parts.join(' AND ');
};

export const sums = async (conn: DuckDBConnection, scope: L4Scope) => {
  const params: Params = [];
  const found = await rows(conn, `SELECT outcome, sum(bytes) AS bytes, sum(connections) AS connections FROM ${l4Rollup(resolutionOf(scope))} WHERE ${where(scope, params)} GROUP BY outcome`, params);
  const of = (outcome: string) => {
    const r = found.find((x) => x.outcome === outcome);
    return { bytes: num(r?.bytes), connections: num(r?.connections) };
  };
  return { pass: of('pass'), drop: of('drop') };
};

export const series: (conn: DuckDBConnection, ...a: Parameters<L4Store['series']>) => ReturnType<L4Store['series']> = async (conn, scope, o) => {
  const params: Params = [];
  const filter = where(scope, params, o);
  const { key } = bucketing(scope, params);
  const found = await rows(
    conn,
    `SELECT epoch_ms(${key}) AS ms, ${keyOf(o.dimension)} AS k, sum(bytes) FILTER (WHERE outcome = 'pass') AS "pass", sum(bytes) FILTER (WHERE outcome = 'drop') AS "drop"
     FROM ${l4Rollup(resolutionOf(scope))} WHERE ${filter} GROUP BY ALL ORDER BY ms, k`,
    params,
  );
  const bucketParams: Params = [];
  const all = await rows(conn, `SELECT epoch_ms(key) AS ms FROM (${bucketing(scope, bucketParams).buckets()}) ORDER BY ms`, bucketParams);
  const points: L4Point[] = found.map((r) => ({ time: new Date(num(r.ms)), key: String(r.k), pass: num(r.pass), drop: num(r.drop) }));
  return { buckets: all.map((r) => new Date(num(r.ms))), points };
};

export const top = async (conn: DuckDBConnection, scope: L4Scope, o: { dimension: L4Dimension; limit: number }): Promise<L4Row[]> => {
  const params: Params = [];
  const found = await rows(
    conn,
    `SELECT ${keyOf(o.dimension)} AS k, sum(bytes) AS bytes, sum(connections) AS connections FROM ${l4Rollup(resolutionOf(scope))}
     WHERE ${where(scope, params, o)} GROUP BY k ORDER BY bytes DESC, connections DESC, k LIMIT ${Math.trunc(o.limit)}`,
    params,
  );
  return found.map((r) => ({ key: String(r.k), bytes: num(r.bytes), connections: num(r.connections) }));
};
