import { afterAll, beforeAll, expect, it } from 'vitest';
import { now } from '../db';
import { call, lane, makeAccount, makeTenants, signIn, startTestApp, type TestApp } from '../../test/harness';

/** A token's session, account and role are kept between its calls; a change to any of them takes effect at its next call. */
lane("a token's kept caller", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let role: number;
  let staff: string;
  const domains = (token: string) => call(t, 'GET', 'client/domains', { token });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    role = (await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'Viewers', permissions: ['sites.view'] } })).body.data.id;
    const account = await makeAccount(t, { auth: 'client', email: 'staff@example.com', isRoot: false, parentClientId: f.clientA.id, roleId: role });
    staff = (await signIn(t, 'client', account.email)).accessToken;
  });
  afterAll(() => t.close());

  it("drops a changed role's permissions at the next call", async () => {
    expect((await domains(staff)).status).toBe(200);
    await t.deps.db.updateTable('roles').set({ permissions: JSON.stringify([]) }).where('id', '=', role).execute();
    expect((await domains(staff)).body).toMatchObject({ code: 101018, extra: { permission: 'sites.view' } });
    await t.deps.db.updateTable('roles').set({ permissions: JSON.stringify(['sites.view']) }).where('id', '=', role).execute();
    expect((await domains(staff)).status).toBe(200);
  });

  it('refuses a disabled account and a revoked session at their next call', async () => {
    expect((await domains(staff)).status).toBe(200);
    await t.deps.db.updateTable('accounts').set({ enabled: 0 }).where('email', '=', 'staff@example.com').execute();
    expect((await domains(staff)).body.code).toBe(101008);
    await t.deps.db.updateTable('accounts').set({ enabled: 1 }).where('email', '=', 'staff@example.com').execute();
    expect((await domains(staff)).status).toBe(200);
    await t.deps.db.updateTable('sessions').set({ revoked_at: now() }).where('account_id', '=', f.clientA.id).execute();
    expect((await domains(f.tokens.clientA)).body.code).toBe(101013);
    expect((await domains(staff)).status).toBe(200);
  });

  it('signs out at once: the token is refused at its next call', async () => {
    const token = (await signIn(t, 'client', 'client-b@example.com')).accessToken;
    expect((await domains(token)).status).toBe(200);
    expect((await call(t, 'DELETE', 'client', { token, body: {} })).status).toBe(200);
    expect((await domains(token)).body.code).toBe(101013);
  });
});
