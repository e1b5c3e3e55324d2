import { dashboardSchemas } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, makeAccount, makeTenants, signIn, startTestApp, type TestApp } from '../../../test/harness';

const layout = (name: string) => ({
  pages: [
    {
      id: 'main',
      name,
      widgets: [
        { i: 'a', type: 'requestsCard', x: 0, y: 0, w: 3, h: 2, options: { range: 'last30Days', reportInterval: 60, title: 'Hits' } },
        { i: 'b', type: 'statusChart', x: 3, y: 0, w: 9, h: 6, options: {} },
      ],
    },
    { id: 'blank', name: 'Blank', widgets: [] },
  ],
});

lane('dashboard', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const get = (token: string, tier = 'client') => call(t, 'GET', `${tier}/dashboard`, { token });
  const put = (token: string, body: unknown, tier = 'client') => call(t, 'PUT', `${tier}/dashboard`, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  it('answers the default layout while the account has saved none', async () => {
    for (const [token, tier] of [[f.tokens.clientA, 'client'], [f.tokens.admin, 'admin']]) {
      const res = await get(token, tier);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...dashboardSchemas.DEFAULT_DASHBOARD, updatedAt: null });
    }
  });

  it('stores a layout whole and answers it back, defaults filled in', async () => {
    const saved = await put(f.tokens.clientA, layout('Main'));
    expect(saved.status).toBe(200);
    expect(saved.body.data.updatedAt).toEqual(expect.any(String));
    const res = await get(f.tokens.clientA);
    expect(res.body.data).toEqual({ ...dashboardSchemas.dashboardLayout.parse(layout('Main')), updatedAt: saved.body.data.updatedAt });
    expect(res.body.data.pages[0].widgets[1].options).toEqual({ range: 'last24Hours', reportInterval: 15 });
    await put(f.tokens.clientA, layout('Renamed'));
    expect((await get(f.tokens.clientA)).body.data.pages[0].name).toBe('Renamed');
  });

  it('stores a deleted dashboard as one with no pages', async () => {
    expect((await put(f.tokens.clientB, { pages: [] })).status).toBe(200);
    expect((await get(f.tokens.clientB)).body.data.pages).toEqual([]);
    await put(f.tokens.clientB, dashboardSchemas.DEFAULT_DASHBOARD);
  });

  it("shows each account only its own, and refuses another tier's token", async () => {
    await put(f.tokens.admin, layout('Platform'), 'admin');
    expect((await get(f.tokens.admin, 'admin')).body.data.pages[0].name).toBe('Platform');
    expect((await get(f.tokens.clientA)).body.data.pages[0].name).toBe('Renamed');
    expect((await get(f.tokens.clientB)).body.data.pages[0].name).toBe('Overview');
    expect((await get(f.tokens.userA, 'client')).status).toBe(401);
    expect((await put(f.tokens.userA, layout('x'), 'client')).status).toBe(401);
    expect((await get(f.tokens.clientA, 'admin')).status).toBe(401);
    expect((await put(f.tokens.clientA, layout('x'), 'admin')).status).toBe(401);
    expect((await get(f.tokens.admin, 'client')).status).toBe(401);
    const rows = await t.deps.db.selectFrom('dashboards').select(['account_id', 'layout']).execute();
    expect(rows.map((r) => [r.account_id, JSON.parse(r.layout).pages[0]?.name]).sort()).toEqual(
      [[f.admin.id, 'Platform'], [f.clientA.id, 'Renamed'], [f.clientB.id, 'Overview']].sort(),
    );
  });

  it("gives a sub-client a dashboard of its own, which it arranges only with dashboard.edit", async () => {
    const sub = async (email: string, permissions: string[]) => {
      const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: email, permissions } });
      const account = await makeAccount(t, { auth: 'client', email, isRoot: false, parentClientId: f.clientA.id, roleId: role.body.data.id });
      return (await signIn(t, 'client', account.email)).accessToken;
    };
    const viewer = await sub('viewer@example.com', ['dashboard.view']);
    expect((await get(viewer)).body.data).toEqual({ ...dashboardSchemas.DEFAULT_DASHBOARD, updatedAt: null });
    const refused = await put(viewer, layout('Mine'));
    expect([refused.status, refused.body.code]).toEqual([403, 101018]);
    const editor = await sub('editor@example.com', ['dashboard.view', 'dashboard.edit']);
    expect((await put(editor, layout('Mine'))).status).toBe(200);
    expect((await get(editor)).body.data.pages[0].name).toBe('Mine');
    expect((await get(viewer)).body.data.pages[0].name).toBe('Overview');
    expect((await get(f.tokens.clientA)).body.data.pages[0].name).toBe('Renamed');
    expect((await get(await sub('nobody@example.com', []))).status).toBe(403);
  });

  it('refuses a bad or oversized layout with 101003 and keeps the stored one', async () => {
    const before = (await get(f.tokens.clientA)).body.data;
    const page = (widgets: object[]) => ({ pages: [{ id: 'p', name: 'P', widgets }] });
    const ok = { i: 'a', type: 'trafficCard', x: 0, y: 0, w: 2, h: 2, options: {} };
    const bad: unknown[] = [
      {},
      { pages: 'none' },
      page([{ ...ok, type: 'coffeeChart' }]),
      page([{ ...ok, x: 11, w: 2 }]),
      page([{ ...ok, w: 13 }]),
      page([{ ...ok, h: 0 }]),
      page([{ ...ok, y: -1 }]),
      page([{ ...ok, x: 1.5 }]),
      page([ok, ok]),
      page([{ ...ok, i: '../etc' }]),
      page([{ ...ok, options: { range: 'lastYear' } }]),
      page([{ ...ok, options: { reportInterval: 7 } }]),
      page([{ ...ok, options: { script: 'x' } }]),
      page([{ ...ok, extra: true }]),
      page(Array.from({ length: dashboardSchemas.DASHBOARD_MAX_WIDGETS + 1 }, (_, n) => ({ ...ok, i: `w${n}` }))),
      { pages: [{ id: 'p', name: ' ', widgets: [] }] },
      { pages: [{ id: 'p', name: 'x'.repeat(65), widgets: [] }] },
      { pages: [{ id: 'p', name: 'A', widgets: [] }, { id: 'p', name: 'B', widgets: [] }] },
      { pages: Array.from({ length: dashboardSchemas.DASHBOARD_MAX_PAGES + 1 }, (_, n) => ({ id: `p${n}`, name: 'P', widgets: [] })) },
    ];
    for (const body of bad) {
      const res = await put(f.tokens.clientA, body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 200)).toEqual([400, 101003]);
    }
    expect((await get(f.tokens.clientA)).body.data).toEqual(before);
  });
});
