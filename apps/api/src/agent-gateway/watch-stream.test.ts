import type { AddressInfo } from 'node:net';
import { edge, stateDelta } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '@edgekeep/agent';
import { call, makeTenants, lane, startTestApp, type TestApp } from '../../test/harness';

type Line = { revision: number; commands?: boolean; delta?: stateDelta.StateDelta };

lane('agent watch stream', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let url: string;
  /** Every stream opened: closed before the app is (a response still open holds its close). */
  const opened: AbortController[] = [];

  /** A node of a new zone of `token`'s client, enrolled: its zone and credential. */
  const enrolled = async (token: string, name: string) => {
    const zone = (await call(t, 'POST', 'client/zone', { token, body: { name } })).body.data.id as number;
    const id = (await call(t, 'POST', 'client/node', { token, body: { zoneID: zone, name, ip: '192.0.2.10' } })).body.data.id as number;
    const init = await call(t, 'POST', 'client/nodes/initialize', { token, body: { id } });
    const res = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: name, version: '0.1.0' } });
    return { zone, id, credential: res.json().credential as string };
  };
  const state = async (credential: string) =>
    (await t.app.inject({ method: 'GET', url: '/agent/v1/state', headers: { authorization: `Node ${credential}` } })).json() as edge.DesiredState;

  /** Opens the stream with the agent's own client; `next()` answers its next line (undefined once the API ended it). */
  const open = (credential: string, since: number, base?: string) => {
    const stop = new AbortController();
    opened.push(stop);
    const lines = createApiClient({ apiUrl: url, credential }).watchStream({ since, base, signal: stop.signal });
    return { next: async () => (await lines.next()).value as Line | undefined, close: () => stop.abort() };
  };

  beforeAll(async () => {
    t = await startTestApp({ AGENT_WATCH_SECONDS: '1' });
    f = await makeTenants(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    opened.forEach((stop) => stop.abort());
    await t.close();
  });

  it('tells a node each change of its zone on one response, each delta from the build the one before led to', async () => {
    const node = await enrolled(f.tokens.clientA, 'stream-a');
    const held = await state(node.credential);
    const raw = await fetch(`${url}/agent/v1/watch/stream?since=0`, { headers: { authorization: `Node ${node.credential}` } });
    expect([raw.status, raw.headers.get('content-type'), raw.headers.get('x-accel-buffering')]).toEqual([200, 'application/x-ndjson', 'no']);
    await raw.body!.cancel();
    const stream = open(node.credential, held.revision, held.etag);
    let holds = held;
    for (const httpsPorts of [[443, 8443], [443, 9443]]) {
      await call(t, 'PUT', `client/zone/${node.zone}/ports`, { token: f.tokens.clientA, body: { httpPorts: [80], httpsPorts } });
      let line = await stream.next();
      // a second's silence is told as it is (the revision as it was)
      while (line && line.revision === holds.revision) line = await stream.next();
      expect(line!.delta!.base).toBe(holds.etag);
      holds = stateDelta.applyDelta(holds, line!.delta!);
      expect(holds.structure.zone.httpsPorts).toEqual(httpsPorts);
      expect(holds).toEqual(await state(node.credential));
    }
    stream.close();
  });

  it('sends a line at least every watch period while nothing changes, and none of another zone', async () => {
    const node = await enrolled(f.tokens.clientA, 'stream-quiet');
    const other = await enrolled(f.tokens.clientB, 'stream-other');
    const { revision } = await state(node.credential);
    const stream = open(node.credential, revision);
    // the first line comes at once, the next after the watch period (a second here)
    expect(await stream.next()).toMatchObject({ revision, commands: false });
    const started = Date.now();
    await call(t, 'PUT', `client/zone/${other.zone}/ports`, { token: f.tokens.clientB, body: { httpPorts: [80], httpsPorts: [443, 8443] } });
    expect(await stream.next()).toMatchObject({ revision, commands: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    stream.close();
  });

  it('ends when the node is de-initialised, and refuses it then; refuses an unknown credential', async () => {
    const node = await enrolled(f.tokens.clientA, 'stream-revoked');
    const stream = open(node.credential, 0);
    expect((await stream.next())!.revision).toBeGreaterThan(0);
    await call(t, 'DELETE', 'client/nodes/initialized', { token: f.tokens.clientA, body: { ids: [node.id] } });
    let line = await stream.next();
    while (line) line = await stream.next();
    const again = await fetch(`${url}/agent/v1/watch/stream?since=0`, { headers: { authorization: `Node ${node.credential}` } });
    expect([again.status, ((await again.json()) as { code: number }).code]).toEqual([401, 101013]);
    expect((await fetch(`${url}/agent/v1/watch/stream?since=0`, { headers: { authorization: 'Node forged' } })).status).toBe(401);
  });

  it('refuses a query it does not take with the validation code', async () => {
    const node = await enrolled(f.tokens.clientA, 'stream-query');
    const res = await fetch(`${url}/agent/v1/watch/stream?since=-1`, { headers: { authorization: `Node ${node.credential}` } });
    expect([res.status, ((await res.json()) as { code: number }).code]).toEqual([400, 101003]);
  });
});
