import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal, lane, makeAccount, makeTenants, startTestApp, type TestApp } from '../../../test/harness';
import { accountsRepo } from './repo';

lane('the accounts repository reaches only the accounts the caller manages', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let subB: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    subB = (await makeAccount(t, { auth: 'user', email: 'sub-b@example.com', parentUserId: f.userB.id, clientId: f.clientB.id })).id;
  });
  afterAll(() => t.close());

  const refused = { code: 101003, status: 404, options: { extra: 'account not found' } };

  it("answers another client's user exactly like a missing account", async () => {
    const accounts = accountsRepo(t.deps.db, asPrincipal(f.clientA.id, 'client'));
    expect((await accounts.get(f.userA.id)).email).toBe('user-a@example.com');
    await expect(accounts.get(f.userB.id)).rejects.toMatchObject(refused);
    await expect(accounts.get(subB)).rejects.toMatchObject(refused);
    await expect(accounts.item(f.userB.id)).rejects.toThrow();
    await expect(accounts.subsPage(f.userB.id, { page: 1, pageSize: 10 })).rejects.toMatchObject(refused);
    expect((await accounts.page({ page: 1, pageSize: 10 })).data.map((a) => a.id)).toEqual([f.userA.id]);
  });

  it('reaches every client for an operator, and a user only the accounts below it', async () => {
    const admin = accountsRepo(t.deps.db, asPrincipal(f.admin.id, 'admin'));
    expect((await admin.page({ page: 1, pageSize: 10, auth: 'client' })).data.map((a) => a.id).sort()).toEqual([f.clientA.id, f.clientB.id].sort());
    const userA = accountsRepo(t.deps.db, asPrincipal(f.userA.id, 'user'));
    await expect(userA.get(subB)).rejects.toMatchObject(refused);
    expect((await userA.page({ page: 1, pageSize: 10 })).total).toBe(0);
    expect((await accountsRepo(t.deps.db, asPrincipal(f.userB.id, 'user')).subsPage(f.userB.id, { page: 1, pageSize: 10 })).data.map((a) => a.id)).toEqual([subB]);
  });
});
