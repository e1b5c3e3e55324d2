import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, lane, signIn, makeAccount, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { enrolNode } from '../../../test/agent-logs';
import { powerDnsInstalled, startPowerDns, type PowerDns } from '../../../test/powerdns';
import { OFFLINE_AFTER_SECONDS } from '../resolutions/health';
import { DNS_SYNC_JOB } from './sync-request';

const report = {
  version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [0, 0, 0], uptimeSeconds: 1,
  cpuPercent: 10, memory: { totalBytes: 1000, usedBytes: 100 }, disk: { totalBytes: 1000, usedBytes: 100 },
};

(powerDnsInstalled() ? lane : describe.skip)('DNS provider (PowerDNS)', () => {
  let t: TestApp;
  let pdns: PowerDns;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  let creds: { main: string; second: string };
  let cname: string;
  const a = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  const setting = () => ({ type: 'powerdns', apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverID: 'localhost', ttl: 30 });
  const beat = (credential: string) => t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${credential}` }, payload: report });

  beforeAll(async () => {
    pdns = await startPowerDns();
    t = await startTestApp({ CNAME_DOMAIN: 'cdn.edgekeep.test', DNS_RESOLVERS: pdns.address });
    f = await makeInfra(t);
    second = (await a('POST', 'client/node', { zoneID: f.a.zone, name: 'edge-a2', ip: '192.0.2.2' })).body.data.id;
    await a('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [f.a.node, second] });
    creds = { main: await enrolNode(t, f.tokens.clientA, f.a.node), second: await enrolNode(t, f.tokens.clientA, second) };
    await beat(creds.main);
    await beat(creds.second);
    cname = (await t.deps.db.selectFrom('sites').select('cname').where('id', '=', f.a.site).executeTakeFirstOrThrow()).cname;
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  it('a root client without a DNS type sees the provider unset', async () => {
    expect((await call(t, 'GET', 'client/account/self', { token: f.tokens.clientA })).body.data.dnsType).toBeNull();
    expect((await a('GET', 'client/setting/dns')).body.data).toMatchObject({ type: null, apiKeySet: false, cnameDomain: 'cdn.edgekeep.test' });
  });

  it('bad settings answer the right code and change nothing', async () => {
    expect((await a('PUT', 'client/setting/dns', { ...setting(), apiUrl: 'ftp://x' })).body.code).toBe(101003);
    expect((await a('PUT', 'client/setting/dns', { ...setting(), type: 'bind' })).body.code).toBe(101003);
    expect((await a('PUT', 'client/setting/dns', { ...setting(), ttl: 0 })).body.code).toBe(101003);
    expect((await a('PUT', 'client/setting/dns', { ...setting(), apiKey: undefined })).body.code).toBe(101003);
    const wrongKey = await a('PUT', 'client/setting/dns', { ...setting(), apiKey: 'wrong' });
    expect([wrongKey.status, wrongKey.body.code]).toEqual([400, 101006]);
    expect((await a('POST', 'client/setting/dns/test', { ...setting(), apiKey: 'wrong' })).body.code).toBe(101006);
    expect((await a('POST', 'client/setting/dns/test', { ...setting(), apiUrl: 'http://127.0.0.1:1' })).body.code).toBe(101006);
    expect((await a('GET', 'client/setting/dns')).body.data).toMatchObject({ type: null, apiKeySet: false });
    expect((await a('PUT', 'client/setting/dns/unprocessed')).body.code).toBe(101006);
    expect(await t.deps.db.selectFrom('dns_settings').selectAll().execute()).toEqual([]);
  });

  it('tests, stores the provider with its key sealed, and the site CNAME answers the healthy nodes', async () => {
    const test = await a('POST', 'client/setting/dns/test', setting());
    expect(test.body.data).toMatchObject({ ok: true, version: expect.stringMatching(/\d/) });
    const put = await a('PUT', 'client/setting/dns', setting());
    expect(put.body.data).toEqual({ type: 'powerdns', apiUrl: pdns.apiUrl, apiKeySet: true, serverID: 'localhost', ttl: 30, cnameDomain: 'cdn.edgekeep.test', updatedAt: expect.any(String) });
    expect(JSON.stringify(put.body)).not.toContain(pdns.apiKey);
    const row = await t.deps.db.selectFrom('dns_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.api_key_sealed).not.toContain(pdns.apiKey);
    expect((await call(t, 'GET', 'client/account/self', { token: f.tokens.clientA })).body.data.dnsType).toBe('powerdns');
    expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect((await a('GET', 'client/setting/dns/unprocessed')).body).toEqual({ data: [], total: 0 });
    // Neither the operation log nor the server log holds the key.
    await vi.waitFor(async () => expect((await t.deps.db.selectFrom('audit_logs').select('body').where('url', 'like', '%setting/dns%').execute()).length).toBeGreaterThan(1));
    const logged = await t.deps.db.selectFrom('audit_logs').select('body').execute();
    expect(JSON.stringify(logged)).not.toContain(pdns.apiKey);
    expect(t.logLines.join('')).not.toContain(pdns.apiKey);
    // An update without a key keeps the stored one.
    expect((await a('PUT', 'client/setting/dns', { ...setting(), apiKey: undefined, ttl: 60 })).body.data).toMatchObject({ ttl: 60, apiKeySet: true });
  });

  it('a node that goes offline leaves the answers within a sync and comes back after it reports', async () => {
    const old = new Date(Date.now() - (OFFLINE_AFTER_SECONDS + 5) * 1000).toISOString();
    await t.deps.db.updateTable('nodes').set({ last_report_at: old }).where('id', '=', second).execute();
    await t.deps.scheduler.runNow(DNS_SYNC_JOB);
    await vi.waitFor(() => expect(pdns.dig(cname)).toEqual(['192.0.2.1']));
    await beat(creds.second);
    await vi.waitFor(() => expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']));
  });

  it('a paused node, or one over its monitor thresholds, leaves at once (the change asks for a sync)', async () => {
    await a('PUT', 'client/node/status', { ids: [f.a.node], enabled: false });
    await vi.waitFor(() => expect(pdns.dig(cname)).toEqual(['192.0.2.2']));
    await a('PUT', 'client/node/status', { ids: [f.a.node], enabled: true });
    await vi.waitFor(() => expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']));
    await a('PUT', 'client/node/monitor', { ids: [second], enabled: true, cpuPercent: 80, memoryPercent: 90, diskPercent: 90, removeFromResolution: true });
    await t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${creds.second}` }, payload: { ...report, cpuPercent: 95 } });
    await vi.waitFor(() => expect(pdns.dig(cname)).toEqual(['192.0.2.1']));
    await beat(creds.second);
    await vi.waitFor(() => expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']));
  });

  it("a change the provider refuses waits as an unprocessed task; repair sends it, recovery rewrites all", async () => {
    const good = await t.deps.db.selectFrom('dns_settings').select('api_key_sealed').executeTakeFirstOrThrow();
    await t.deps.db.updateTable('dns_settings').set({ api_key_sealed: (await import('../../lib/crypto')).encrypt(t.deps.secrets.dataKey, 'wrong') }).execute();
    await a('PUT', 'client/node/status', { ids: [second], enabled: false });
    await vi.waitFor(async () => expect((await a('GET', 'client/setting/dns/unprocessed')).body.data[0]).toMatchObject({ name: cname, type: 'A', action: 'replace', records: ['192.0.2.1'], lastError: expect.stringContaining('API key') }));
    expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    await t.deps.db.updateTable('dns_settings').set({ api_key_sealed: good.api_key_sealed }).execute();
    expect((await a('PUT', 'client/setting/dns/unprocessed')).body.data).toEqual({ processed: 1, remaining: 0 });
    expect(pdns.dig(cname)).toEqual(['192.0.2.1']);
    await a('PUT', 'client/node/status', { ids: [second], enabled: true });
    await vi.waitFor(() => expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']));
    // Recovery: the zone lost at the provider is made again with every record.
    await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/cdn.edgekeep.test.`, { method: 'DELETE', headers: { 'X-API-Key': pdns.apiKey } });
    expect(pdns.dig(cname)).toEqual([]);
    expect((await a('POST', 'client/setting/dns/recovery')).body.data).toMatchObject({ remaining: 0 });
    expect(pdns.dig(cname).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it("the domains' CNAME check passes against the provider", async () => {
    const domain = (await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'www.shop.test', upstreams: [{ host: '198.51.100.7', port: 80 }] } })).body.data[0];
    // The customer's zone at the same server points the domain at the site CNAME.
    const h = { 'X-API-Key': pdns.apiKey, 'content-type': 'application/json' };
    await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones`, { method: 'POST', headers: h, body: JSON.stringify({ name: 'shop.test.', kind: 'Native', nameservers: [] }) });
    await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/shop.test.`, {
      method: 'PATCH', headers: h, body: JSON.stringify({ rrsets: [{ name: 'www.shop.test.', type: 'CNAME', ttl: 30, changetype: 'REPLACE', records: [{ content: `${cname}.`, disabled: false }] }] }),
    });
    const check = await call(t, 'PUT', `user/site/${f.a.site}/domains/checkCNAME`, { token: f.tokens.userA, body: { ids: [domain.id] } });
    expect(check.body.data[0]).toMatchObject({ cnameStatus: 'active', records: [cname] });
  });

  it('CNAME domains: added as zones at the provider, enabled = not disabled, duplicates and enabled removal refused', async () => {
    const made = await a('POST', 'client/setting/dns/cname', { domain: 'Edge.Example.NET', memo: 'second brand' });
    expect(made.body.data).toMatchObject({ domain: 'edge.example.net', enabled: true, memo: 'second brand' });
    expect((await a('POST', 'client/setting/dns/cname', { domain: 'edge.example.net' })).body.code).toBe(101025);
    expect((await a('POST', 'client/setting/dns/cname', { domain: 'not a domain' })).body.code).toBe(101003);
    expect((await a('GET', 'client/setting/dns/cnames')).body).toMatchObject({ total: 1, data: [{ domain: 'edge.example.net', enabled: true }] });
    expect((await a('GET', 'client/setting/dns/cname/meta')).body.data).toEqual([{ id: made.body.data.id, domain: 'edge.example.net' }]);
    await vi.waitFor(async () => {
      const zones = (await (await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones`, { headers: { 'X-API-Key': pdns.apiKey } })).json()) as { name: string }[];
      expect(zones.map((z) => z.name)).toEqual(expect.arrayContaining(['cdn.edgekeep.test.', 'edge.example.net.']));
    });
    expect((await a('DELETE', 'client/setting/dns/cnames', { ids: [made.body.data.id] })).body.code).toBe(101003);
    expect((await a('PUT', 'client/setting/dns/cname', { id: made.body.data.id, enabled: false })).body.data.enabled).toBe(false);
    expect((await a('GET', 'client/setting/dns/cname/meta')).body.data).toEqual([]);
    expect((await a('DELETE', 'client/setting/dns/cnames', { ids: [made.body.data.id] })).status).toBe(200);
    expect((await a('GET', 'client/setting/dns/cnames')).body.total).toBe(0);
  });

  it('another client sees only its own settings and cannot touch these; a user and a sub-client are refused', async () => {
    const b = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientB, body });
    expect((await b('GET', 'client/setting/dns')).body.data).toMatchObject({ type: null, apiKeySet: false });
    expect((await b('GET', 'client/setting/dns/unprocessed')).body.total).toBe(0);
    const mine = (await a('POST', 'client/setting/dns/cname', { domain: 'mine.example.org' })).body.data;
    expect((await b('GET', 'client/setting/dns/cnames')).body.total).toBe(0);
    expect((await b('PUT', 'client/setting/dns/cname', { id: mine.id, enabled: false })).status).toBe(404);
    expect((await b('DELETE', 'client/setting/dns/cnames', { ids: [mine.id] })).status).toBe(404);
    expect((await a('GET', 'client/setting/dns/cnames')).body.data[0]).toMatchObject({ id: mine.id, enabled: true });
    expect((await call(t, 'GET', 'client/setting/dns', { token: f.tokens.userA })).status).toBe(401);
    const sub = await makeAccount(t, { auth: 'client', email: 'sub-a@example.com', isRoot: false, parentClientId: f.clientA.id });
    const subToken = (await signIn(t, 'client', sub.email)).accessToken;
    expect((await call(t, 'PUT', 'client/setting/dns', { token: subToken, body: setting() })).body.code).toBe(101018);
  });
});
