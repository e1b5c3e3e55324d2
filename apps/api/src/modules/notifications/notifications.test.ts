import { notificationSchemas } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { enrolNode, logLine, postLogs } from '../../../test/agent-logs';
import { startFakeBot, type FakeBot } from '../../../test/fake-bot';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, makeAccount, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { runDueMonitors } from '../monitors/service';
import { evaluateTraffic } from '../traffic/state';
import { deliverDue } from './delivery';
import { sweepWatched } from './watch';

const TOKEN_A = '123456:AAAAbbbbCCCCddddEEEEffff1234';
const TOKEN_ADMIN = '999:ZZZZyyyyXXXXwwwwVVVVuuuu9876';
const GB = 1_000_000_000;

lane('notifications', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let bot: FakeBot;
  let sink: SmtpSink;
  const as = (token: string) => ({
    get: (path: string) => call(t, 'GET', path, { token }),
    put: (path: string, body: unknown) => call(t, 'PUT', path, { token, body }),
    post: (path: string, body?: unknown) => call(t, 'POST', path, { token, body }),
  });
  const queued = (accountId: number) =>
    t.deps.db.selectFrom('notify_queue').selectAll().where('account_id', '=', accountId).orderBy('id').execute();

  beforeAll(async () => {
    bot = await startFakeBot();
    bot.addToken(TOKEN_A);
    bot.addToken(TOKEN_ADMIN);
    sink = await startSmtpSink();
    // Nothing answers the platform's default bot API: client A's outgoing URL leads to the fake.
    t = await startTestApp({ BOT_API_URL: 'http://127.0.0.1:9', TRUST_PROXY: 'true' });
    f = await makeInfra(t);
    const clientA = as(f.tokens.clientA);
    await clientA.put('setting/system/outgoingURL', { url: bot.url });
    await clientA.put('client/setting/email', { enabled: true, host: '127.0.0.1', port: sink.port, from: 'noc@client-a.example' });
  });
  afterAll(async () => {
    await t.close();
    await bot.close();
    await sink.close();
  });

  describe('chat-bot channel', () => {
    it('stores the channel on every tier; the token is encrypted and never answered', async () => {
      for (const [tier, token] of [['user', f.tokens.userA], ['client', f.tokens.clientA], ['admin', f.tokens.admin]] as const) {
        const me = as(token);
        expect((await me.get(`${tier}/setting/tg`)).body.data).toEqual({ enabled: false, tokenSet: false, registerCommand: '', registered: false, updatedAt: null });
        const saved = await me.put(`${tier}/setting/tg`, { enabled: true, token: tier === 'admin' ? TOKEN_ADMIN : TOKEN_A, registerCommand: `/register ${tier}` });
        expect(saved.status).toBe(200);
        expect(saved.body.data).toMatchObject({ enabled: true, tokenSet: true, registerCommand: `/register ${tier}`, registered: false });
        expect(JSON.stringify(saved.body)).not.toContain('AAAAbbbb');
        expect((await me.get(`${tier}/setting/tg`)).body.data).toEqual(saved.body.data);
      }
      const rows = await t.deps.db.selectFrom('notify_bots').select('token_sealed').execute();
      expect(rows.map((r) => r.token_sealed).join()).not.toMatch(/AAAAbbbb|ZZZZyyyy/);
      // The operation log keeps the calls with the token removed; the log lines never carry it.
      const logged = await vi.waitFor(async () => {
        const bodies = await t.deps.db.selectFrom('audit_logs').select('body').where('url', 'like', '%setting/tg%').execute();
        expect(bodies.length).toBeGreaterThanOrEqual(3);
        return bodies.map((b) => b.body).join();
      });
      expect(logged).toContain('/register user');
      expect(`${logged}${t.logLines.join('')}`).not.toMatch(/AAAAbbbb|ZZZZyyyy/);
    });

    it('refuses a malformed token (101021), a missing or malformed register command (101003), and changes nothing', async () => {
      const me = as(f.tokens.userA);
      const before = (await me.get('user/setting/tg')).body.data;
      expect((await me.put('user/setting/tg', { enabled: true, token: 'not-a-token', registerCommand: '/register x' })).body.code).toBe(101021);
      expect((await me.put('user/setting/tg', { enabled: true, registerCommand: '' })).body.code).toBe(101003);
      expect((await me.put('user/setting/tg', { enabled: true })).body.code).toBe(101003);
      expect((await me.put('user/setting/tg', { enabled: true, registerCommand: 'register without slash' })).body.code).toBe(101003);
      expect((await me.get('user/setting/tg')).body.data).toEqual(before);
      const fresh = as(f.tokens.userB);
      expect((await fresh.put('user/setting/tg', { enabled: true, registerCommand: '/register b' })).body.code).toBe(101021);
      expect((await fresh.get('user/setting/tg')).body.data.updatedAt).toBeNull();
    });

    it('registers the chat that sends the register command, then the test message reaches it', async () => {
      const me = as(f.tokens.userA);
      const early = await me.post('user/setting/tg/test');
      expect(early.body.code).toBe(101003);
      bot.chatSays(555, '/register someone-else');
      bot.chatSays(777, '/register user');
      const sent = await me.post('user/setting/tg/test');
      expect(sent.status).toBe(200);
      expect(bot.sent.at(-1)).toMatchObject({ token: TOKEN_A, chatId: '777' });
      expect((await me.get('user/setting/tg')).body.data.registered).toBe(true);
      // A new register command forgets the chat until it is sent again.
      await me.put('user/setting/tg', { enabled: true, registerCommand: '/register again' });
      expect((await me.get('user/setting/tg')).body.data.registered).toBe(false);
      bot.chatSays(777, '/register again');
      expect((await me.post('user/setting/tg/test')).status).toBe(200);
    });

    it('answers 101021 when the API refuses the token and 101007 when it cannot be reached', async () => {
      const client = as(f.tokens.clientB);
      await client.put('client/setting/tg', { enabled: true, token: '42:unknownTokenUnknownToken', registerCommand: '/register b' });
      expect((await client.post('client/setting/tg/test')).body.code).toBe(101007);
      await client.put('setting/system/outgoingURL', { url: bot.url });
      expect((await client.post('client/setting/tg/test')).body.code).toBe(101021);
      expect((await as(f.tokens.admin).post('admin/setting/tg/test')).body.code).toBe(101007);
    });

    it("keeps each account's channel its own and refuses another tier's token", async () => {
      expect((await as(f.tokens.userB).get('user/setting/tg')).body.data.tokenSet).toBe(false);
      expect((await as(f.tokens.userA).get('client/setting/tg')).body.code).toBe(101013);
      expect((await as(f.tokens.clientA).put('user/setting/tg', { enabled: false, registerCommand: '/x' })).body.code).toBe(101013);
      expect((await as(f.tokens.userA).get('admin/setting/notify')).body.code).toBe(101013);
    });

    it('refuses a sub-user whose role lacks notify.edit', async () => {
      const role = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'readers', permissions: ['sites.view'] } });
      await makeAccount(t, { auth: 'user', email: 'reader@user-a.example', isRoot: false, parentUserId: f.userA.id, clientId: f.clientA.id, roleId: role.body.data.id });
      const reader = as((await signIn(t, 'user', 'reader@user-a.example')).accessToken);
      expect((await reader.get('user/setting/tg')).body.code).toBe(101018);
      expect((await reader.put('user/setting/notify', { email: true, bot: true, events: [] })).body.code).toBe(101018);
    });
  });

  it('round-trips the notice choices and refuses unknown events', async () => {
    const me = as(f.tokens.clientB);
    expect((await me.get('client/setting/notify')).body.data).toEqual({ email: true, bot: true, events: [...notificationSchemas.NOTIFY_EVENTS], updatedAt: null });
    const saved = await me.put('client/setting/notify', { email: false, bot: true, events: ['node.online', 'node.offline'] });
    expect(saved.body.data).toMatchObject({ email: false, bot: true, events: ['node.offline', 'node.online'] });
    expect((await me.put('client/setting/notify', { email: true, bot: true, events: ['sun.exploded'] })).body.code).toBe(101003);
    expect((await me.get('client/setting/notify')).body.data).toEqual(saved.body.data);
  });

  it('a sign-in from a new address queues a notice; mail arrives at the SMTP sink and the bot message after a retry', async () => {
    const before = (await queued(f.userA.id)).length;
    await signIn(t, 'user', f.userA.email, undefined, { 'x-forwarded-for': '198.51.100.7' });
    const rows = (await queued(f.userA.id)).slice(before);
    expect(rows.map((r) => [r.kind, r.channel, r.status])).toEqual([['login.newAddress', 'email', 'pending'], ['login.newAddress', 'bot', 'pending']]);
    const mails = sink.mails.length;
    const messages = bot.sent.length;
    bot.failNext(1);
    await deliverDue(t.deps);
    expect(sink.mails.slice(mails)).toEqual([expect.objectContaining({ to: [f.userA.email] })]);
    expect(sink.mails.at(-1)!.raw).toContain('198.51.100.7');
    expect(bot.sent.length).toBe(messages);
    const retry = (await queued(f.userA.id)).at(-1)!;
    expect(retry).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('502') });
    expect(Date.parse(retry.next_attempt_at)).toBeGreaterThan(Date.now());
    await deliverDue(t.deps);
    expect(bot.sent.length).toBe(messages);
    await deliverDue(t.deps, Date.parse(retry.next_attempt_at));
    expect(bot.sent.at(-1)).toMatchObject({ chatId: '777', text: expect.stringContaining('198.51.100.7') });
    expect((await queued(f.userA.id)).at(-1)).toMatchObject({ status: 'sent', attempts: 2 });
    // The same address again is known.
    await signIn(t, 'user', f.userA.email, undefined, { 'x-forwarded-for': '198.51.100.7' });
    expect((await queued(f.userA.id)).length).toBe(before + 2);
  });

  it('tells the client when its node goes offline and comes back, and when a monitor fails', async () => {
    await enrolNode(t, f.tokens.clientA, f.a.node);
    await t.deps.db.updateTable('nodes').set({ last_report_at: new Date().toISOString() }).where('id', '=', f.a.node).execute();
    await sweepWatched(t.deps);
    expect(await queued(f.clientA.id)).toEqual([]);
    await sweepWatched(t.deps, Date.now() + 120_000);
    await sweepWatched(t.deps, Date.now() + 130_000);
    await sweepWatched(t.deps);
    expect((await queued(f.clientA.id)).filter((r) => r.channel === 'email').map((r) => r.kind)).toEqual(['node.offline', 'node.online']);

    await as(f.tokens.clientA).post('client/monitor/nodes', { nodeIDs: [f.a.node] });
    const monitor = (await as(f.tokens.clientA).get('client/monitor/nodes')).body.data[0].id;
    await as(f.tokens.clientA).put('client/monitor/node', { id: monitor, type: 'status', url: 'http://127.0.0.1:9/', statusCode: '200' });
    await runDueMonitors(t.deps, Date.now() + 3_600_000);
    await runDueMonitors(t.deps, Date.now() + 7_200_000);
    expect((await queued(f.clientA.id)).filter((r) => r.kind === 'monitor.failure').length).toBe(2);

    const mails = sink.mails.length;
    await deliverDue(t.deps);
    const subjects = sink.mails.slice(mails).filter((m) => m.to.includes(f.clientA.email)).map((m) => /Subject: (.*)/.exec(m.raw)![1].trim());
    expect(subjects).toEqual(['EdgeKeep: Node offline', 'EdgeKeep: Node back online', 'EdgeKeep: Monitor failure']);
  });

  it("tells the site's user of traffic warning and limit, and of a certificate about to expire", async () => {
    await call(t, 'PUT', 'client/product', { token: f.tokens.clientA, body: { id: f.a.product, monthlyTrafficGB: 1, exceedAction: 'limit' } });
    const cred = await enrolNode(t, f.tokens.clientA, f.a.node);
    const usage = async () => (await call(t, 'GET', 'user/traffic/monthlyUsages', { token: f.tokens.userA })).body.data[0];
    await postLogs(t, cred, [logLine({ siteId: f.a.site, bytesSent: 0.85 * GB })]);
    await expect.poll(usage, { timeout: 5000 }).toMatchObject({ trafficState: 'warning' });
    await evaluateTraffic(t.deps);
    await postLogs(t, cred, [logLine({ siteId: f.a.site, bytesSent: 0.2 * GB })]);
    await expect.poll(usage, { timeout: 5000 }).toMatchObject({ trafficState: 'limited' });
    await evaluateTraffic(t.deps);
    const kinds = (await queued(f.userA.id)).filter((r) => r.channel === 'bot' && r.kind.startsWith('traffic')).map((r) => r.kind);
    expect(kinds).toEqual(['traffic.warning', 'traffic.limited']);

    const at = new Date().toISOString();
    await t.deps.db
      .insertInto('certificates')
      .values({ site_id: f.a.site, name: 'shop-cert', chain: '', key_sealed: '', subject: 'CN=shop.example', names: '[]', issuer: 'test', not_before: at, not_after: new Date(Date.now() + 3 * 86_400_000).toISOString(), created_at: at, updated_at: at })
      .execute();
    await sweepWatched(t.deps);
    await sweepWatched(t.deps);
    expect((await queued(f.userA.id)).filter((r) => r.kind === 'certificate.expiring').length).toBe(2);
    expect((await queued(f.userB.id)).length).toBe(0);

    const messages = bot.sent.length;
    await deliverDue(t.deps);
    expect(bot.sent.slice(messages).map((m) => m.text.split('\n')[0])).toEqual(['EdgeKeep: Traffic warning', 'EdgeKeep: Traffic limited', 'EdgeKeep: Certificate expiring']);
  });

  it("skips what the account did not choose", async () => {
    await as(f.tokens.userA).put('user/setting/notify', { email: false, bot: true, events: ['traffic.limited'] });
    await signIn(t, 'user', f.userA.email, undefined, { 'x-forwarded-for': '203.0.113.50' });
    const messages = bot.sent.length;
    const mails = sink.mails.length;
    await deliverDue(t.deps);
    expect(bot.sent.length).toBe(messages);
    expect(sink.mails.length).toBe(mails);
    expect((await queued(f.userA.id)).slice(-2).map((r) => r.status)).toEqual(['skipped', 'skipped']);
  });
});
