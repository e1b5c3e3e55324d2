import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { agentProtocol, Codes } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode, logLine, postLogs } from '../../test/agent-logs';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { MAX_BATCH_BYTES, MAX_BATCH_LINES } from './ingest';

lane('access log ingest', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credA: string;

  const rawCount = (siteId: number) => t.deps.analytics.countLines({ siteIds: [siteId], from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) });
  const usage = async (token: string) => (await call(t, 'GET', 'user/traffic/monthlyUsages', { token })).body.data as { siteID: number; bytesSent: number; requests: number }[];

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    credA = await enrolNode(t, f.tokens.clientA, f.a.node);
  });
  afterAll(() => t.close());

  it('refuses a batch without a node credential, or with a wrong one', async () => {
    const lines = [logLine({ siteId: f.a.site })];
    expect((await postLogs(t, undefined, lines)).body.code).toBe(101013);
    expect((await postLogs(t, 'not-a-credential', lines)).status).toBe(401);
    expect((await usage(f.tokens.userA))[0].requests).toBe(0);
  });

  it("stores the lines of the node's own sites and drops other zones' sites, unknown sites and bad lines", async () => {
    const lines = [
      logLine({ siteId: f.a.site, bytesSent: 1500 }),
      logLine({ siteId: f.a.site, bytesSent: 500, status: 404, cacheStatus: 'HIT' }),
      logLine({ siteId: f.b.site, bytesSent: 999_999 }),
      logLine({ siteId: null, bytesSent: 7 }),
      { ...logLine({ siteId: f.a.site }), status: 'two hundred' },
      'not json',
    ];
    const res = await postLogs(t, credA, lines);
    expect(res).toEqual({ status: 200, body: { accepted: 6 } });
    expect(await usage(f.tokens.userA)).toEqual([expect.objectContaining({ siteID: f.a.site, bytesSent: 2000, bytesReceived: 400, requests: 2 })]);
    expect((await usage(f.tokens.userB))[0]).toMatchObject({ siteID: f.b.site, bytesSent: 0, requests: 0 });
    expect(await rawCount(f.b.site)).toBe(0);
    expect(await rawCount(f.a.site)).toBe(2);
  });

  it('counts a batch the agent sends again (its answer was lost) once', async () => {
    const lines = [logLine({ siteId: f.a.site, bytesSent: 3000, uri: '/retry' })];
    expect((await postLogs(t, credA, lines)).body.accepted).toBe(1);
    expect((await postLogs(t, credA, lines)).body.accepted).toBe(1);
    expect((await usage(f.tokens.userA))[0]).toMatchObject({ bytesSent: 5000, requests: 3 });
  });

  it('stores a line of a log file once by its offset: a resend, or a batch overlapping the last, adds only new lines', async () => {
    const headers = { [agentProtocol.LOG_FILE_HEADER]: '2049:131077' };
    const lines = [1, 2, 3].map((i) => ({ ...logLine({ siteId: f.a.site, bytesSent: 100, uri: `/file/${i}` }), offset: i * 300 }));
    expect((await postLogs(t, credA, lines.slice(0, 2), { headers })).body.accepted).toBe(2);
    expect((await postLogs(t, credA, lines.slice(0, 2), { headers })).body.accepted).toBe(2);
    expect((await postLogs(t, credA, lines, { headers })).body.accepted).toBe(3);
    expect((await usage(f.tokens.userA))[0]).toMatchObject({ bytesSent: 5300, requests: 6 });
  });

  it('refuses a body that is not gzip or unpacks too large, and keeps nothing of it', async () => {
    expect((await postLogs(t, credA, [], { raw: Buffer.from('plain text') })).body.code).toBe(101003);
    const bomb = gzipSync(Buffer.concat([Buffer.from(JSON.stringify(logLine({ siteId: f.a.site })) + '\n'), Buffer.alloc(MAX_BATCH_BYTES + 10, 0x20)]));
    expect((await postLogs(t, credA, [], { raw: bomb })).status).toBe(413);
    const tooBig = await postLogs(t, credA, [], { raw: randomBytes(5 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
    const tooMany = await postLogs(t, credA, [], { raw: gzipSync(`${JSON.stringify(logLine({ siteId: f.a.site }))}\n`.repeat(MAX_BATCH_LINES + 1)) });
    expect(tooMany).toMatchObject({ status: 413, body: { code: Codes.ItemCountExceeded } });
    expect((await usage(f.tokens.userA))[0]).toMatchObject({ bytesSent: 5300, requests: 6 });
    // nothing of them is left in the spool, written part way or whole
    expect(fs.readdirSync(path.join(t.deps.config.dataDir, 'analytics-spool')).filter((n) => n !== 'failed')).toEqual([]);
  });

  it('keeps the store in DATA_DIR and answers the same after a restart of the store', async () => {
    await t.deps.analytics.close();
    expect((await usage(f.tokens.userA))[0]).toMatchObject({ bytesSent: 5300, requests: 6 });
  });
  it("moves the lines of a node whose clock is off by minutes to the API's time, and keeps those of a node a few seconds off", async () => {
    const ahead = 20 * 60_000;
    const window = (from: number, to: number, uri: string) => t.deps.analytics.countLines({ siteIds: [f.a.site], from: new Date(from), to: new Date(to), uri });
    const sentAt = (skew: number) => ({ [agentProtocol.LOG_SENT_AT_HEADER]: String(Date.now() + skew) });
    const skewed = [1, 2].map((i) => logLine({ siteId: f.a.site, uri: `/clock-ahead/${i}`, time: new Date(Date.now() + ahead).toISOString() }));
    expect((await postLogs(t, credA, skewed, { headers: sentAt(ahead) })).body.accepted).toBe(2);
    const now = Date.now();
    expect(await window(now - 60_000, now + 60_000, '/clock-ahead/')).toBe(2);
    expect(await window(now + ahead - 60_000, now + ahead + 60_000, '/clock-ahead/')).toBe(0);
    // within the margin (mostly the batch's time in transit) the node's times stand
    const close = logLine({ siteId: f.a.site, uri: '/clock-close', time: new Date(Date.now() + 5000).toISOString() });
    expect((await postLogs(t, credA, [close], { headers: sentAt(5000) })).body.accepted).toBe(1);
    const at = Date.parse(close.time);
    expect(await window(at, at + 1, '/clock-close')).toBe(1);
  });
});
