import net from 'node:net';
import { Codes } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createPgDatabase, makeTenants, startTestApp, type TestApp } from '../../test/harness';

/**
 * A stand-in for the PostgreSQL server between the API and the real one: `down()` ends every connection and refuses
 * new ones, as a server that stops does; `up()` takes connections again, as it does once restarted.
 */
async function cuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const port = await listen();
  return {
    port,
    down: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    up: () => listen(port),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

// PostgreSQL mode only; the test makes its own database, so it runs on its lane alone.
describe.runIf(process.env.EK_TEST_DB === 'postgres')('the database server restarting under the API', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let database: Awaited<ReturnType<typeof createPgDatabase>>;
  let token: string;

  beforeAll(async () => {
    database = await createPgDatabase();
    const url = new URL(database.url);
    proxy = await cuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    t = await startTestApp({ DATABASE_URL: url.toString() });
    token = (await makeTenants(t)).tokens.clientA;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  const zones = async () => (await call(t, 'GET', 'client/zones', { token })).body.data.map((z: { name: string }) => z.name) as string[];

  it('answers 503 with the catalogue envelope while it is down, recovers without a restart, and loses no change it acknowledged', async () => {
    const acknowledged: string[] = [];
    const first = await call(t, 'POST', 'client/zone', { token, body: { name: 'before-outage' } });
    expect(first.status).toBe(200);
    acknowledged.push('before-outage');

    await proxy.down();
    const write = await call(t, 'POST', 'client/zone', { token, body: { name: 'during-outage' } });
    expect(write.status).toBe(503);
    expect(write.body).toEqual({ code: Codes.Unknown, message: expect.any(String), extra: { reason: 'temporarily unavailable' } });
    expect(write.headers['retry-after']).toBe('5');
    const read = await call(t, 'GET', 'client/zones', { token });
    expect(read.status).toBe(503);
    expect(read.body.code).toBe(Codes.Unknown);

    await proxy.up();
    // the pool's dropped connections are forgotten: the first call after the restart is answered
    const after = await call(t, 'POST', 'client/zone', { token, body: { name: 'after-outage' } });
    expect(after.status).toBe(200);
    acknowledged.push('after-outage');
    expect(await zones()).toEqual(expect.arrayContaining(acknowledged));
    expect(await zones()).not.toContain('during-outage');
    expect(t.logLines.some((l) => l.includes('database unavailable'))).toBe(true);
  });
});
