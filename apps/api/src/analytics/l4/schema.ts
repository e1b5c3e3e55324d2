import type { DuckDBConnection } from '@duckdb/node-api';

/** The dimensions an L4 rollup row is kept under ('all': the row of every connection, value ''); protocol is a column. */
export const L4_ROLLUP_DIMS = { all: "''", colo: 'colo_country', ip: 'client_ip', asn: 'asn' } as const;
/** The rollups' resolutions, as the HTTP rollups': 5 minutes while kept, hourly after. */
export const L4_RESOLUTIONS = ['5m', '1h'] as const;
export const l4Rollup = (r: (typeof L4_RESOLUTIONS)[number]) => `l4_${r}`;

const TABLES = [
  `CREATE TABLE IF NOT EXISTS l4_log (
    node_id INTEGER NOT NULL, site_id INTEGER NOT NULL, time TIMESTAMP NOT NULL, port INTEGER NOT NULL, protocol VARCHAR NOT NULL,
    client_ip VARCHAR NOT NULL, outcome VARCHAR NOT NULL, status INTEGER NOT NULL, bytes_sent BIGINT NOT NULL, bytes_received BIGINT NOT NULL,
    session_time DOUBLE NOT NULL, country VARCHAR NOT NULL, asn VARCHAR NOT NULL, colo_country VARCHAR NOT NULL)`,
  /** Keyless like the HTTP rollups: each batch appends its sums, reads add them up. */
  ...L4_RESOLUTIONS.map(
    (r) => `CREATE TABLE IF NOT EXISTS ${l4Rollup(r)} (
      bucket TIMESTAMP NOT NULL, site_id INTEGER NOT NULL, protocol VARCHAR NOT NULL, outcome VARCHAR NOT NULL, dim VARCHAR NOT NULL,
      value VARCHAR NOT NULL, bytes BIGINT NOT NULL, connections BIGINT NOT NULL)`,
  ),
];

export const prepareL4Schema = async (conn: DuckDBConnection) => {
  for (const stmt of TABLES) await conn.run(stmt);
};
