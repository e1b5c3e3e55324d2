import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { rows } from '../sql';
import { compactL4, pruneL4 } from './maintain';
import { prepareL4Schema } from './schema';

const HOUR = 3_600_000;

describe('L4 rollup maintenance', () => {
  it('merges the rows of the hours touched into one per bucket and key, with the same sums, and prunes by age', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    await prepareL4Schema(conn);
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const at = (ms: number) => new Date(hour + ms).toISOString().replace('T', ' ').slice(0, 19);
    const row = (time: string, bytes: number) => `('${time}', 1, 'TCP', 'pass', 'ip', '203.0.113.9', ${bytes}, 1)`;
    // the hour before stays as it is: two rows of one bucket
    await conn.run(`INSERT INTO l4_5m VALUES ${[row(at(-HOUR), 5), row(at(-HOUR), 6), row(at(0), 10), row(at(0), 20), row(at(300_000), 7)].join(', ')}`);
    await conn.run(`INSERT INTO l4_1h VALUES ${[row(at(0), 10), row(at(0), 27)].join(', ')}`);
    await conn.run(`INSERT INTO l4_log VALUES (1, 1, '${at(-10 * 86_400_000)}', 9000, 'TCP', '203.0.113.9', 'pass', 200, 1, 1, 0, '', '', ''), (1, 1, '${at(0)}', 9000, 'TCP', '203.0.113.9', 'pass', 200, 1, 1, 0, '', '', '')`);
    await compactL4(conn, { from: new Date(hour + 60_000) });
    const fine = await rows(conn, 'SELECT strftime(bucket, \'%H:%M\') AS b, bytes, connections FROM l4_5m ORDER BY bucket, bytes');
    expect(fine.map((r) => [Number(r.bytes), Number(r.connections)])).toEqual([[5, 1], [6, 1], [30, 2], [7, 1]]);
    expect((await rows(conn, 'SELECT bytes, connections FROM l4_1h')).map((r) => [Number(r.bytes), Number(r.connections)])).toEqual([[37, 2]]);
    await pruneL4(conn, { rawRetentionDays: 7 });
    expect((await rows(conn, 'SELECT count(*) AS n FROM l4_log')).map((r) => Number(r.n))).toEqual([1]);
    conn.closeSync();
    db.closeSync();
  });
});
