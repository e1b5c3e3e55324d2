import { permissionKeys } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, makeTenants, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { rolesRepo } from './repo';

lane('roles and permissions', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  it('a root account holds every key of its tier', async () => {
    const self = await call(t, 'GET', 'user/account/self', { token: f.tokens.userA });
    expect(self.body.data.permissions.sort()).toEqual(permissionKeys('user').sort());
    expect(self.body.data.permissionKeys).toEqual(permissionKeys('user'));
  });

  it('creates, lists, renames and removes a role; keys must be known and held', async () => {
    const unknown = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'x', permissions: ['zones.edit'] } });
    expect(unknown.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'permissions' }] } });
    const made = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'Editors', permissions: ['sites.view', 'sites.edit', 'sites.view'] } });
    expect(made.body.data).toMatchObject({ roleName: 'Editors', permissions: ['sites.edit', 'sites.view'], accountCount: 0 });
    const dup = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'Editors', permissions: [] } });
    expect([dup.status, dup.body.code]).toEqual([409, 101025]);
    const id = made.body.data.id;
    const renamed = await call(t, 'PUT', `user/role/${id}`, { token: f.tokens.userA, body: { roleName: 'Site editors', permissions: ['sites.view'] } });
    expect(renamed.body.data).toMatchObject({ roleName: 'Site editors', permissions: ['sites.view'] });
    expect((await call(t, 'GET', 'user/roles', { token: f.tokens.userA })).body).toMatchObject({ total: 1, data: [{ id }] });
    expect((await call(t, 'GET', 'user/metaRoles', { token: f.tokens.userA })).body.data).toEqual([{ id, roleName: 'Site editors' }]);
    expect((await call(t, 'DELETE', `user/role/${id}`, { token: f.tokens.userA })).status).toBe(200);
    expect((await call(t, 'GET', 'user/roles', { token: f.tokens.userA })).body.total).toBe(0);
  });

  it("another tenant's roles are invisible and untouchable", async () => {
    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'mine', permissions: ['sites.view'] } });
    const id = role.body.data.id;
    expect((await call(t, 'GET', 'client/roles', { token: f.tokens.clientB })).body.total).toBe(0);
    expect((await call(t, 'PUT', `client/role/${id}`, { token: f.tokens.clientB, body: { roleName: 'stolen', permissions: [] } })).status).toBe(404);
    expect((await call(t, 'DELETE', `client/role/${id}`, { token: f.tokens.clientB })).status).toBe(404);
    const list = await call(t, 'GET', 'client/roles', { token: f.tokens.clientA });
    expect(list.body.data[0].roleName).toBe('mine');
  });

  it('refuses to remove a role that accounts hold, with a clear code', async () => {
    const role = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'held', permissions: ['sites.view'] } });
    await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { email: 'holder@example.com', name: 'holder', roleID: role.body.data.id, password: PASSWORD } });
    const r = await call(t, 'DELETE', `user/role/${role.body.data.id}`, { token: f.tokens.userA });
    expect([r.status, r.body.code, r.body.extra]).toEqual([409, 101032, { accounts: 1 }]);
  });

  it('a role lacking a key is refused at the API with 101018, whatever the console shows', async () => {
    const viewer = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'no-accounts', permissions: ['dashboard.view'] } });
    const sub = await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { email: 'limited@example.com', name: 'limited', roleID: viewer.body.data.id, password: PASSWORD } });
    const token = (await signIn(t, 'user', 'limited@example.com')).accessToken;
    const refused = await call(t, 'GET', 'user/accounts', { token });
    expect([refused.status, refused.body.code, refused.body.extra]).toEqual([403, 101018, { permission: 'accounts.view' }]);
    expect((await call(t, 'POST', 'user/role', { token, body: { roleName: 'escalate', permissions: [] } })).body.code).toBe(101018);
    expect((await call(t, 'GET', 'user/account/self', { token })).body.data.permissions).toEqual(['dashboard.view']);

    const wider = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'accounts', permissions: ['accounts.view'] } });
    expect((await call(t, 'PUT', 'user/account/role', { token: f.tokens.userA, body: { ids: [sub.body.data.id], roleID: wider.body.data.id } })).status).toBe(200);
    expect((await call(t, 'GET', 'user/accounts', { token })).status).toBe(200);
    expect((await call(t, 'PUT', 'user/account/role', { token: f.tokens.userA, body: { ids: [f.userA.id], roleID: wider.body.data.id } })).status).toBe(404);
  });

  it('a sub-account cannot grant keys it does not hold', async () => {
    const r = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'roles-only', permissions: ['roles.view', 'roles.edit'] } });
    await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { auth: 'client', email: 'deputy@example.com', name: 'deputy', roleID: r.body.data.id, password: PASSWORD } });
    const deputy = (await signIn(t, 'client', 'deputy@example.com')).accessToken;
    const grab = await call(t, 'POST', 'client/role', { token: deputy, body: { roleName: 'all', permissions: ['zones.edit'] } });
    expect(grab.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'permissions' }] } });
    const fine = await call(t, 'POST', 'client/role', { token: deputy, body: { roleName: 'readers', permissions: ['roles.view'] } });
    expect(fine.status).toBe(200);
    expect((await call(t, 'GET', 'client/roles', { token: f.tokens.clientA })).body.data.map((x: { roleName: string }) => x.roleName)).toContain('readers');
  });

  it("neither reads, renames nor removes another client's role through the repository", async () => {
    const mine = rolesRepo(t.deps.db, { tier: 'client', owner: f.clientA.id });
    const theirs = rolesRepo(t.deps.db, { tier: 'client', owner: f.clientB.id });
    const id = await mine.create('Repo editors', ['sites.view']);
    expect(await theirs.find(id)).toBeUndefined();
    expect(await theirs.item(id)).toBeUndefined();
    expect((await theirs.names()).map((r) => r.id)).not.toContain(id);
    expect(await theirs.nameTaken('Repo editors')).toBe(false);
    await theirs.update(id, 'Stolen', []);
    await theirs.remove(id);
    expect(await mine.find(id)).toMatchObject({ name: 'Repo editors', permissions: '["sites.view"]' });
    expect(await rolesRepo(t.deps.db, { tier: 'user', owner: f.clientA.id }).find(id)).toBeUndefined();
  });
});
