import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal, call, makeTenants, lane, startTestApp, type TestApp } from '../../../test/harness';
import { apiTokensRepo } from './repo';

lane('API tokens', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  it('a script trades its API token for access tokens until the token is deleted', async () => {
    const made = await call(t, 'POST', 'apiToken', { token: f.tokens.clientA, body: { name: 'deploy' } });
    expect(made.body.data).toEqual({ id: expect.any(Number), name: 'deploy', refreshToken: expect.stringMatching(/^ek_/) });
    const apiToken = made.body.data.refreshToken;
    const stored = await t.deps.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(apiToken);

    const first = await call(t, 'PATCH', 'client', { body: { refreshToken: apiToken } });
    const second = await call(t, 'PATCH', 'client', { body: { refreshToken: apiToken } });
    expect(first.body.data.refreshToken).toBe(apiToken);
    expect(second.status).toBe(200);
    const access = second.body.data.accessToken;
    expect((await call(t, 'GET', 'client/account/self', { token: access })).status).toBe(200);

    const list = await call(t, 'GET', 'apiTokens', { token: f.tokens.clientA });
    expect(list.body.data).toEqual([{ id: made.body.data.id, name: 'deploy', createdAt: expect.any(String), lastUsedAt: expect.any(String), expiredAt: null }]);
    expect(JSON.stringify(list.body)).not.toContain(apiToken);
    expect((await call(t, 'PATCH', 'user', { body: { refreshToken: apiToken } })).body.code).toBe(101016);

    expect((await call(t, 'DELETE', 'apiTokens', { token: f.tokens.clientA, body: { ids: [made.body.data.id] } })).status).toBe(200);
    expect((await call(t, 'GET', 'client/account/self', { token: access })).body.code).toBe(101013);
    expect((await call(t, 'PATCH', 'client', { body: { refreshToken: apiToken } })).body.code).toBe(101016);
  });

  it("keeps each account's tokens its own", async () => {
    const made = await call(t, 'POST', 'apiToken', { token: f.tokens.userA, body: { name: 'mine' } });
    expect((await call(t, 'GET', 'apiTokens', { token: f.tokens.userB })).body.data).toEqual([]);
    const steal = await call(t, 'DELETE', 'apiTokens', { token: f.tokens.userB, body: { ids: [made.body.data.id] } });
    expect([steal.status, steal.body.code]).toEqual([404, 101003]);
    expect((await call(t, 'GET', 'apiTokens', { token: f.tokens.userA })).body.data).toHaveLength(1);
  });

  it('stops working at its expiry, and refuses an expiry in the past', async () => {
    const past = await call(t, 'POST', 'apiToken', { token: f.tokens.userA, body: { name: 'old', expiredAt: '2020-01-01T00:00:00Z' } });
    expect(past.body.code).toBe(101003);
    const soon = await call(t, 'POST', 'apiToken', { token: f.tokens.userA, body: { name: 'soon', expiredAt: Math.floor(Date.now() / 1000) + 3600 } });
    expect(soon.status).toBe(200);
    await t.deps.db.updateTable('sessions').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', soon.body.data.id).execute();
    expect((await call(t, 'PATCH', 'user', { body: { refreshToken: soon.body.data.refreshToken } })).body.code).toBe(101016);
  });

  it('is not made from a switched-in session', async () => {
    const proxy = await call(t, 'POST', 'client/proxy', { token: f.tokens.clientA, body: { id: f.userA.id } });
    const r = await call(t, 'POST', 'apiToken', { token: proxy.body.data.accessToken, body: { name: 'sneaky' } });
    expect([r.status, r.body.code]).toEqual([403, 101018]);
  });

  it("neither lists nor revokes another user's token through the repository", async () => {
    const mine = apiTokensRepo(t.deps.db, asPrincipal(f.userA.id, 'user'));
    const theirs = apiTokensRepo(t.deps.db, asPrincipal(f.userB.id, 'user'));
    const id = await mine.create({ name: 'repo', tokenHash: 'hash-of-repo' });
    expect((await theirs.all()).map((r) => r.id)).not.toContain(id);
    await expect(theirs.revoke([id])).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'API token not found' } });
    expect((await mine.all()).map((r) => r.id)).toContain(id);
    await mine.revoke([id]);
    expect((await mine.all()).map((r) => r.id)).not.toContain(id);
  });
});
