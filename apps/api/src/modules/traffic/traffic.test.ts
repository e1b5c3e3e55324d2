import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { enrolNode, logLine, postLogs } from '../../../test/agent-logs';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, makeAccount, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { monthOf, previousMonth, stateOf } from './usage';

const GOLDEN = path.join(import.meta.dirname, '__golden__', 'limited-site-state.json');
const GB = 1_000_000_000;

describe('traffic state', () => {
  it('is normal when unlimited, warning from 80 %, limited at 100 %', () => {
    expect(stateOf({ used: 10 * GB, allowance: 0 })).toBe('normal');
    expect(stateOf({ used: 79, allowance: 100 })).toBe('normal');
    expect(stateOf({ used: 80, allowance: 100 })).toBe('warning');
    expect(stateOf({ used: 100, allowance: 100 })).toBe('limited');
  });
  it('steps back a month across the year', () => {
    expect(previousMonth({ year: 2026, month: 1 })).toEqual({ year: 2025, month: 12 });
  });
});

lane('traffic packages and reports', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credA: string;
  const { year, month } = monthOf();
  /** A month well inside the hourly rollups' retention and apart from this and last month. */
  const past = previousMonth(previousMonth(previousMonth({ year, month })));

  const plan = (token: string, body: unknown, method = 'POST') => call(t, method, 'client/extraTrafficPlan', { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    credA = await enrolNode(t, f.tokens.clientA, f.a.node);
    await call(t, 'PUT', 'client/product', { token: f.tokens.clientA, body: { id: f.a.product, monthlyTrafficGB: 1, trafficPrice: 3, exceedAction: 'limit' } });
  });
  afterAll(() => t.close());

  it('creates, lists with filters, changes and removes a plan; price defaults to GB times the product price', async () => {
    const created = await plan(f.tokens.clientA, { siteID: f.a.site, trafficGB: 5, year, month, memo: 'top-up' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ siteID: f.a.site, userID: f.userA.id, productID: f.a.product, productName: 'plan-a', trafficGB: 5, price: 15, year, month, memo: 'top-up' });
    const id = created.body.data.id;
    const other = await plan(f.tokens.clientA, { siteID: f.a.site, trafficGB: 2, price: 1, year: 2025, month: 1 });
    const list = (q: string) => call(t, 'GET', `client/extraTrafficPlans?${q}`, { token: f.tokens.clientA }).then((r) => r.body);
    expect((await list('page=1&pageSize=10')).total).toBe(2);
    expect((await list(`userID=${f.userA.id}&productID=${f.a.product}&productName=plan`)).total).toBe(2);
    expect((await list(`year=${year}&month=${month}`)).data.map((p: { id: number }) => p.id)).toEqual([id]);
    expect((await list('productName=nothing-like-it')).total).toBe(0);
    expect((await list('sortBy=trafficGB&orderBy=asc')).data.map((p: { trafficGB: number }) => p.trafficGB)).toEqual([2, 5]);

    const updated = await plan(f.tokens.clientA, { id, trafficGB: 6, price: 20 }, 'PUT');
    expect(updated.body.data).toMatchObject({ id, trafficGB: 6, price: 20, memo: 'top-up' });
    const removed = await call(t, 'DELETE', 'client/extraTrafficPlans', { token: f.tokens.clientA, body: { ids: [other.body.data.id] } });
    expect(removed.body.data).toEqual({ ok: true });
    expect((await list('')).total).toBe(1);
  });

  it('refuses bad input with 101003 and changes nothing', async () => {
    const before = (await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientA })).body.total;
    for (const body of [
      { siteID: f.a.site, trafficGB: 0, year, month },
      { siteID: f.a.site, trafficGB: 1, year, month: 13 },
      { siteID: f.a.site, trafficGB: 1.5, year, month },
      { siteID: f.a.site, trafficGB: 1, year, month, price: -1 },
      { trafficGB: 1, year, month },
    ]) {
      const res = await plan(f.tokens.clientA, body);
      expect([res.status, res.body.code]).toEqual([400, 101003]);
    }
    expect((await call(t, 'GET', 'client/extraTrafficPlans?sortBy=password', { token: f.tokens.clientA })).body.code).toBe(101003);
    expect((await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientA })).body.total).toBe(before);
  });

  it("never shows or touches another client's plans: same answer as a missing one", async () => {
    const mine = (await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientA })).body.data[0];
    expect((await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientB })).body).toEqual({ data: [], total: 0 });
    const onForeignSite = await plan(f.tokens.clientB, { siteID: f.a.site, trafficGB: 1, year, month });
    const onMissingSite = await plan(f.tokens.clientB, { siteID: 999_999, trafficGB: 1, year, month });
    expect([onForeignSite.status, onForeignSite.body.code]).toEqual([onMissingSite.status, onMissingSite.body.code]);
    const change = await plan(f.tokens.clientB, { id: mine.id, trafficGB: 99 }, 'PUT');
    const changeMissing = await plan(f.tokens.clientB, { id: 999_999, trafficGB: 99 }, 'PUT');
    expect([change.status, change.body.code]).toEqual([404, 101003]);
    expect([change.status, change.body]).toEqual([changeMissing.status, { ...changeMissing.body }]);
    const remove = await call(t, 'DELETE', 'client/extraTrafficPlans', { token: f.tokens.clientB, body: { ids: [mine.id] } });
    expect(remove.status).toBe(404);
    expect((await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientA })).body.data[0]).toMatchObject({ id: mine.id, trafficGB: 6 });
    expect((await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.userA })).status).toBe(401);
  });

  it('a user sees only its own sites\' plans', async () => {
    const a = await call(t, 'GET', 'user/extraTrafficPlans?productName=plan', { token: f.tokens.userA });
    expect(a.body.total).toBe(1);
    expect(a.body.data[0].siteID).toBe(f.a.site);
    expect((await call(t, 'GET', 'user/extraTrafficPlans', { token: f.tokens.userB })).body).toEqual({ data: [], total: 0 });
    expect((await call(t, 'GET', 'user/extraTrafficPlans', { token: f.tokens.clientA })).status).toBe(401);
  });

  it("reports each site's month: bytes served against product + plans, warning from 80 %", async () => {
    await postLogs(t, credA, [logLine({ siteId: f.a.site, bytesSent: 6 * GB }), logLine({ siteId: f.a.site, bytesSent: 0.5 * GB, time: new Date(Date.UTC(past.year, past.month - 1, 10)).toISOString() })]);
    const now = (await call(t, 'GET', `client/traffic/monthlyUsages?year=${year}&month=${month}`, { token: f.tokens.clientA })).body;
    expect(now.total).toBe(1);
    expect(now.data[0]).toMatchObject({ siteID: f.a.site, year, month, bytesSent: 6 * GB, requests: 1, productTrafficGB: 1, extraTrafficGB: 6, allowanceBytes: 7 * GB, usedPercent: 85, trafficState: 'warning', limited: false });
    const old = (await call(t, 'GET', `client/traffic/monthlyUsages?year=${past.year}&month=${past.month}`, { token: f.tokens.clientA })).body.data[0];
    expect(old).toMatchObject({ bytesSent: 0.5 * GB, extraTrafficGB: 0, allowanceBytes: 1 * GB, usedPercent: 50, trafficState: 'normal' });
    expect((await call(t, 'GET', `client/traffic/monthlyUsages?userID=${f.userB.id}`, { token: f.tokens.clientA })).body).toEqual({ data: [], total: 0 });
    expect((await call(t, 'GET', 'client/traffic/monthlyUsages?month=13', { token: f.tokens.clientA })).body.code).toBe(101003);
  });

  it("never shows another tenant's usage; a user only its own", async () => {
    const b = (await call(t, 'GET', 'client/traffic/monthlyUsages', { token: f.tokens.clientB })).body;
    expect(b.data.map((u: { siteID: number }) => u.siteID)).toEqual([f.b.site]);
    expect(b.data[0].bytesSent).toBe(0);
    expect((await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userB })).body.data.map((u: { siteID: number }) => u.siteID)).toEqual([f.b.site]);
    const a = (await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userA })).body;
    expect(a.data).toHaveLength(1);
    expect(a.data[0]).toMatchObject({ siteID: f.a.site, bytesSent: 6 * GB });
  });

  it('limits a site at 100 % when its product says so: its node state carries the flag (golden), and a plan lifts it', async () => {
    const revision = async () => (await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', f.a.zone).executeTakeFirstOrThrow()).revision;
    const before = await revision();
    await postLogs(t, credA, [logLine({ siteId: f.a.site, bytesSent: 1 * GB, uri: '/big' })]);
    // The site's state is evaluated once its new lines are folded into the rollups (a read folds them at once).
    const usage = async () => (await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userA })).body.data[0];
    await expect.poll(usage, { timeout: 5000 }).toMatchObject({ bytesSent: 7 * GB, usedPercent: 100, trafficState: 'limited', limited: true });
    expect(await revision()).toBeGreaterThan(before);
    const state = await buildNodeState(t.deps, f.a.node);
    const shaped = { ...state, revision: '<revision>' };
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, `${JSON.stringify(shaped, null, 2)}\n`);
    expect(shaped).toEqual(JSON.parse(fs.readFileSync(GOLDEN, 'utf8')));
    expect((await buildNodeState(t.deps, f.b.node)).data.sites).toEqual([]);

    await plan(f.tokens.clientA, { siteID: f.a.site, trafficGB: 2, year, month });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites).toEqual([]);
    expect((await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userA })).body.data[0]).toMatchObject({ usedPercent: 77, trafficState: 'normal', limited: false });
  });

  it("a product that does not stop the site only reports 'limited'", async () => {
    await call(t, 'PUT', 'client/product', { token: f.tokens.clientA, body: { id: f.a.product, monthlyTrafficGB: 1, exceedAction: 'none' } });
    const list = (await call(t, 'GET', 'client/extraTrafficPlans', { token: f.tokens.clientA })).body.data;
    await call(t, 'DELETE', 'client/extraTrafficPlans', { token: f.tokens.clientA, body: { ids: list.map((p: { id: number }) => p.id) } });
    expect((await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userA })).body.data[0]).toMatchObject({ trafficState: 'limited', limited: false });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites).toEqual([]);
  });

  it("resource info counts the user's sites, domains and this and last month's bytes", async () => {
    const last = previousMonth({ year, month });
    await postLogs(t, credA, [logLine({ siteId: f.a.site, bytesSent: 12345, time: new Date(Date.UTC(last.year, last.month - 1, 15)).toISOString() })]);
    const a = (await call(t, 'GET', 'user/resourceInfo', { token: f.tokens.userA })).body.data;
    expect(a).toEqual({ siteCount: 1, domainCount: 0, thisMonthTraffic: 7 * GB, lastMonthTraffic: 12345 });
    expect((await call(t, 'GET', 'user/resourceInfo', { token: f.tokens.userB })).body.data).toEqual({ siteCount: 1, domainCount: 0, thisMonthTraffic: 0, lastMonthTraffic: 0 });
    const lonely = await makeAccount(t, { auth: 'user', email: 'lonely@example.com', isRoot: true, clientId: f.clientA.id });
    const token = (await signIn(t, 'user', lonely.email)).accessToken;
    expect((await call(t, 'GET', 'user/resourceInfo', { token })).body.data).toEqual({ siteCount: 0, domainCount: 0, thisMonthTraffic: 0, lastMonthTraffic: 0 });
    expect((await call(t, 'GET', 'user/resourceInfo', { token: f.tokens.clientA })).status).toBe(401);
  });
});
