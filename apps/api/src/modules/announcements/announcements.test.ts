import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal, call, lane, makeAccount, makeTenants, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { announcementsRepo } from './repo';

type Item = { id: number; title: string; content: string; startTime: string; endTime: string };
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

lane('announcements', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const write = (token: string, body: unknown, method = 'POST') => call(t, method, 'client/setting/announcement', { token, body });
  const list = async (token: string, q = '') => (await call(t, 'GET', `client/setting/announcements?${q}`, { token })).body as { data: Item[]; total: number };
  const shown = async (token: string, q = '') => (await call(t, 'GET', `user/announcements?${q}`, { token })).body as { data: Item[]; total: number };

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  it('writes, lists, changes and removes announcements; times are kept in UTC', async () => {
    const created = await write(f.tokens.clientA, { title: ' Maintenance ', content: 'Tonight 02:00', startTime: '2026-01-01T08:00:00+08:00', endTime: '2026-01-02T00:00:00Z' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ title: 'Maintenance', content: 'Tonight 02:00', startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z' });
    const id = created.body.data.id;
    await write(f.tokens.clientA, { title: 'Second', startTime: at(-1), endTime: at(1) });
    expect((await list(f.tokens.clientA)).total).toBe(2);
    expect((await list(f.tokens.clientA, 'title=Maint')).data.map((a) => a.id)).toEqual([id]);
    expect((await list(f.tokens.clientA, 'sortBy=startTime&orderBy=asc&pageSize=1')).data.map((a) => a.id)).toEqual([id]);
    const changed = await write(f.tokens.clientA, { id, title: 'Maintenance window', endTime: '2026-01-03T00:00:00Z' }, 'PUT');
    expect(changed.body.data).toMatchObject({ id, title: 'Maintenance window', content: 'Tonight 02:00', endTime: '2026-01-03T00:00:00.000Z' });
    expect((await call(t, 'DELETE', 'client/setting/announcements', { token: f.tokens.clientA, body: { ids: [id] } })).body.data).toEqual({ ok: true });
    expect((await list(f.tokens.clientA)).data.map((a) => a.title)).toEqual(['Second']);
  });

  it('refuses bad input with 101003 and changes nothing', async () => {
    const before = await list(f.tokens.clientA);
    for (const body of [
      { title: '', startTime: at(0), endTime: at(1) },
      { startTime: at(0), endTime: at(1) },
      { title: 'x'.repeat(257), startTime: at(0), endTime: at(1) },
      { title: 'ends first', startTime: at(1), endTime: at(0) },
      { title: 'same time', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z' },
      { title: 'no zone', startTime: '2026-01-01 00:00', endTime: at(1) },
    ]) {
      const res = await write(f.tokens.clientA, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 101003]);
    }
    const mine = before.data[0];
    const backwards = await write(f.tokens.clientA, { id: mine.id, endTime: '2000-01-01T00:00:00Z' }, 'PUT');
    expect([backwards.status, backwards.body.code, backwards.body.extra.fields[0].field]).toEqual([400, 101003, 'endTime']);
    expect(await list(f.tokens.clientA)).toEqual(before);
  });

  it("shows a user only its own client's announcements, and only while their window holds now", async () => {
    await write(f.tokens.clientA, { title: 'Past', startTime: at(-3), endTime: at(-2) });
    await write(f.tokens.clientA, { title: 'Future', startTime: at(2), endTime: at(3) });
    await write(f.tokens.clientA, { title: 'Newest', startTime: at(-0.5), endTime: at(1) });
    await write(f.tokens.clientB, { title: 'Other client', startTime: at(-1), endTime: at(1) });
    const a = await shown(f.tokens.userA);
    expect(a.total).toBe(2);
    expect(a.data.map((x) => x.title)).toEqual(['Newest', 'Second']);
    expect((await shown(f.tokens.userA, 'page=2&pageSize=1')).data.map((x) => x.title)).toEqual(['Second']);
    expect((await shown(f.tokens.userB)).data.map((x) => x.title)).toEqual(['Other client']);
    expect((await call(t, 'GET', 'user/announcements', { token: f.tokens.clientA })).status).toBe(401);
  });

  it("never shows or touches another client's announcements: same answer as a missing one", async () => {
    const mine = (await list(f.tokens.clientA)).data[0];
    expect((await list(f.tokens.clientB)).data.map((a) => a.title)).toEqual(['Other client']);
    const change = await write(f.tokens.clientB, { id: mine.id, title: 'taken' }, 'PUT');
    const changeMissing = await write(f.tokens.clientB, { id: 999_999, title: 'taken' }, 'PUT');
    expect([change.status, change.body.code]).toEqual([404, 101003]);
    expect([change.status, change.body]).toEqual([changeMissing.status, changeMissing.body]);
    const remove = await call(t, 'DELETE', 'client/setting/announcements', { token: f.tokens.clientB, body: { ids: [mine.id] } });
    const removeMissing = await call(t, 'DELETE', 'client/setting/announcements', { token: f.tokens.clientB, body: { ids: [999_999] } });
    expect([remove.status, remove.body]).toEqual([removeMissing.status, removeMissing.body]);
    expect((await list(f.tokens.clientA)).data[0]).toEqual(mine);
    expect((await call(t, 'GET', 'client/setting/announcements', { token: f.tokens.userA })).status).toBe(401);
  });
  it("neither reads, changes nor removes another client's announcement through the repository", async () => {
    const mine = announcementsRepo(t.deps, asPrincipal(f.clientA.id, 'client'));
    const theirs = announcementsRepo(t.deps, asPrincipal(f.clientB.id, 'client'));
    const id = await mine.create({ title: 'repo', content: 'mine', start_time: at(-1), end_time: at(1) });
    const refused = { code: 101003, status: 404, options: { extra: 'announcement not found' } };
    await expect(theirs.get(id)).rejects.toMatchObject(refused);
    await expect(theirs.remove([id])).rejects.toMatchObject(refused);
    await theirs.update(id, { title: 'taken' });
    expect((await theirs.page({ page: 1, pageSize: 100 })).data.map((r) => r.id)).not.toContain(id);
    expect((await announcementsRepo(t.deps, asPrincipal(f.userB.id, 'user')).current({ page: 1, pageSize: 100 }, at(0))).data.map((r) => r.id)).not.toContain(id);
    expect(await mine.get(id)).toMatchObject({ title: 'repo' });
    await mine.remove([id]);
  });

  it("a sub-client writes its client's announcements and a sub-user reads its client's", async () => {
    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'writers', permissions: ['announcements.edit'] } });
    expect(role.status).toBe(200);
    const sub = await makeAccount(t, { auth: 'client', email: 'writer@example.com', isRoot: false, parentClientId: f.clientA.id, roleId: role.body.data.id });
    const subToken = (await signIn(t, 'client', sub.email)).accessToken;
    const written = await write(subToken, { title: 'From the team', startTime: at(-0.1), endTime: at(1) });
    expect(written.status).toBe(200);
    expect((await list(f.tokens.clientA)).data.map((a) => a.title)).toContain('From the team');
    const userRole = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'readers', permissions: ['dashboard.view'] } });
    const subUser = await makeAccount(t, { auth: 'user', email: 'reader@example.com', isRoot: false, parentUserId: f.userA.id, clientId: f.clientA.id, roleId: userRole.body.data.id });
    const readerToken = (await signIn(t, 'user', subUser.email)).accessToken;
    expect((await shown(readerToken)).data.map((a) => a.title)).toEqual(['From the team', 'Newest', 'Second']);
  });
});
