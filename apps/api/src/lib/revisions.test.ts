import { Codes } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { makeInfra } from '../../test/fixtures';

const postgres = process.env.EK_TEST_DB === 'postgres';

lane('revision notices', () => {
  let a: TestApp;
  let b: TestApp | undefined;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credential: string;

  /** An agent call (long-poll watch, say) to one instance. */
  const agent = async (t: TestApp, url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/agent/v1/${url}`, headers: { authorization: `Node ${credential}` } });
    return res.json() as { revision: number };
  };
  /** A watch that is waiting on `t`, and how long it took to answer. */
  const watching = async (t: TestApp) => {
    const since = (await agent(t, 'watch?since=0')).revision;
    const started = Date.now();
    const answer = agent(t, `watch?since=${since}`).then((r) => ({ ...r, ms: Date.now() - started }));
    await new Promise((r) => setTimeout(r, 200));
    return { since, answer };
  };

  /** Resolves once instance `t` has heard of the zone's revision as instance A knows it (a notice comes within moments). */
  const heard = async (t: TestApp) => {
    const revision = (await agent(a, 'watch?since=0')).revision;
    const deadline = Date.now() + 5000;
    while ((await agent(t, 'watch?since=0')).revision < revision && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };

  beforeAll(async () => {
    a = await startTestApp({ AGENT_WATCH_SECONDS: '20' });
    // A second instance on the same database, as behind a load balancer.
    if (postgres) b = await startTestApp({ AGENT_WATCH_SECONDS: '20', DATABASE_URL: a.deps.config.databaseUrl! });
    f = await makeInfra(a);
    const init = await call(a, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id: f.a.node } });
    const enrol = await a.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'edge', version: '0.1.0' } });
    credential = enrol.json().credential;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it.skipIf(!postgres)('wakes an agent watching instance B when a change is made through instance A', async () => {
    const { since, answer } = await watching(b!);
    const made = await call(a, 'POST', `user/site/${f.a.site}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: '203.0.113.9' } });
    expect(made.status).toBe(200);
    const woke = await answer;
    expect(woke.revision).toBeGreaterThan(since);
    expect(woke.ms).toBeLessThan(5000);
  });

  it('wakes the zone\'s watchers for a purge, without a new revision, so the agent fetches its commands', async () => {
    const domain = { domains: 'shop.example.com', upstreams: [{ host: '192.0.2.80', port: 80 }] };
    expect((await call(a, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: domain })).status).toBe(200);
    await heard(b ?? a);
    const { since, answer } = await watching(b ?? a);
    // the instance knows the zone's nodes have nothing waiting
    expect(await agent(b ?? a, 'commands')).toEqual({ commands: [] });
    const purged = await call(a, 'DELETE', `user/site/${f.a.site}/setting/currentCache`, { token: f.tokens.userA });
    expect(purged.body.data).toEqual({ nodes: 1 });
    const woke = await answer;
    expect(woke.revision).toBe(since);
    expect(woke.ms).toBeLessThan(5000);
    expect(await agent(b ?? a, 'commands')).toMatchObject({ commands: [{ kind: 'clearCache' }] });
  });

  it('answers a watch that comes after a change made through another instance at once, though its zone\'s revision was read before', async () => {
    const t = b ?? a;
    // the instance reads the zone's revision for this watch, and keeps it
    const since = (await agent(t, 'watch?since=0')).revision;
    expect((await call(a, 'POST', `user/site/${f.a.site}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: '203.0.113.11' } })).status).toBe(200);
    // the change's notice drops what the other instance kept
    await heard(t);
    const started = Date.now();
    const answer = await agent(t, `watch?since=${since}`);
    expect(answer.revision).toBeGreaterThan(since);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not wake watchers of another zone', async () => {
    const { answer } = await watching(b ?? a);
    await call(a, 'POST', `user/site/${f.b.site}/firewall/setting/blacklists`, { token: f.tokens.userB, body: { ips: '203.0.113.10' } });
    const timeout = new Promise((r) => setTimeout(() => r('still waiting'), 1500));
    expect(await Promise.race([answer, timeout])).toBe('still waiting');
  });

  // last: the node can call no more
  it('refuses a revoked credential on every instance within moments, though each had kept the node', async () => {
    const instances = b ? [a, b] : [a];
    const commands = (t: TestApp) => t.app.inject({ method: 'GET', url: '/agent/v1/commands', headers: { authorization: `Node ${credential}` } });
    for (const t of instances) expect((await commands(t)).statusCode).toBe(200);
    expect((await call(a, 'DELETE', 'client/nodes/initialized', { token: f.tokens.clientA, body: { ids: [f.a.node] } })).status).toBe(200);
    expect((await commands(a)).json().code).toBe(Codes.WrongCode);
    for (const t of instances) {
      const deadline = Date.now() + 2000;
      let code: number | undefined;
      while (code !== Codes.WrongCode && Date.now() < deadline) {
        code = (await commands(t)).json().code;
        if (code !== Codes.WrongCode) await new Promise((r) => setTimeout(r, 50));
      }
      expect(code).toBe(Codes.WrongCode);
    }
  });
});
