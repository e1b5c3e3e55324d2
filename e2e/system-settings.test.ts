import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBot, type FakeBot } from '../apps/api/test/fake-bot';
import { freshPage, launchBrowser, screenshot, waitForToast } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { licensedClient, signInByMail, until, type Tier } from './tenants';

const PASSWORD = 'settings e2e password';
const BOT_TOKEN = '4242:e2eTokenE2eTokenE2eToken';

describe('system settings and notification screens', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let bot: FakeBot;
  let server: Server;
  let admin: string;
  let client: string;
  let user: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    bot = await startFakeBot();
    bot.addToken(BOT_TOKEN);
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD, BOT_API_URL: bot.url });
    ({ admin, client } = await licensedClient({ server, smtp, password: PASSWORD }));
    await createAccountCli(server, ['--auth', 'user', '--email', 'shop@example.com', '--password', PASSWORD, '--client', 'ops@example.com']);
    user = await signInByMail({ server, smtp, tier: 'user', email: 'shop@example.com', password: PASSWORD });
  });

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await bot?.close();
  });

  const as = async (context: Awaited<ReturnType<typeof launchBrowser>>['context'], tier: Tier, token: string) => {
    await context.clearCookies();
    await context.addCookies(['accessToken', 'refreshToken', 'tokenType'].map((name) => ({ name: `${tier[0]}_${name}`, value: name === 'tokenType' ? 'Bearer' : name === 'accessToken' ? token : 'unused', url: server.url })));
  };

  it('a client sets its mail server and sends a test mail, sets token lifetimes, ray id parts, subnets and its chat bot, and sees the status', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await as(browser.context, 'client', client);
      await page.goto(`${server.url}/client/systemManagement/systemSetting?tab=email`);
      const email = page.getByTestId('email-setting');
      await email.locator('#enabled').click();
      await email.locator('#host').fill('127.0.0.1');
      await email.locator('#port').fill(new URL(smtp.url).port);
      await email.locator('#from').fill('noc@ops.example.com');
      await email.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      const sent = smtp.mails.length;
      await page.getByTestId('test-mail-to').fill('someone@example.com');
      await page.getByRole('button', { name: 'Send test mail' }).click();
      await waitForToast(page, 'Connection Success!');
      await until('the test mail', async () => smtp.mails.slice(sent).find((m) => m.to.includes('someone@example.com') && m.raw.includes('From: noc@ops.example.com')));

      await page.getByTestId('setting-tab-accountVerify').click();
      const verify = page.getByTestId('account-verify-setting');
      await verify.locator('#accessTokenMinutes').fill('2');
      await verify.getByRole('button', { name: 'Save' }).click();
      await verify.getByText('From 5 to 1440').waitFor();
      await verify.locator('#accessTokenMinutes').fill('45');
      await verify.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      expect((await api(server, 'GET', 'setting/system/accountVerify', { token: client })).body.data.accessTokenMinutes).toBe(45);

      await page.getByTestId('setting-tab-CDNRayLog').click();
      const ray = page.getByTestId('ray-log-setting');
      await ray.getByLabel('Node (n<id>)').waitFor();
      expect(await ray.getByLabel('Node (n<id>)').isChecked()).toBe(true);
      await ray.getByLabel('Site (s<id>)').check();
      await ray.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      expect((await api(server, 'GET', 'setting/system/CDNRayLog', { token: client })).body.data.logParts).toEqual(['node', 'site']);

      await page.getByTestId('setting-tab-restrictGroupCIDRs').click();
      const cidrs = page.getByTestId('restrict-cidrs-setting');
      await cidrs.locator('#cidrs').fill('10.0.0.0/8\n10.0.0.0/33');
      await cidrs.getByRole('button', { name: 'Save' }).click();
      await cidrs.getByText('Not a CIDR block: 10.0.0.0/33').waitFor();
      await cidrs.locator('#cidrs').fill('10.0.0.0/8\n2001:db8::/32');
      await cidrs.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      expect((await api(server, 'GET', 'setting/system/restrictGroupCIDRs', { token: client })).body.data.cidrs).toEqual(['10.0.0.0/8', '2001:db8::/32']);

      await page.getByTestId('setting-tab-chatBot').click();
      const botCard = page.getByTestId('bot-setting');
      await botCard.locator('#enabled').click();
      await botCard.locator('#token').fill(BOT_TOKEN);
      await botCard.locator('#registerCommand').fill('/register ops');
      await botCard.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      await botCard.getByText('Send /register ops to your bot').waitFor();
      bot.chatSays(31337, '/register ops');
      await botCard.getByRole('button', { name: 'Send test message' }).click();
      await waitForToast(page, 'Connection Success!');
      expect(bot.sent.at(-1)).toMatchObject({ token: BOT_TOKEN, chatId: '31337' });
      await botCard.getByTestId('bot-registered').getByText('Chat registered').waitFor();

      // the last tab sits where the tab bar scrolls: a click while it moves may not take, so click until it shows
      for (let i = 0; i < 10; i++) {
        await page.getByTestId('setting-tab-status').click();
        if (await page.getByTestId('system-status').waitFor({ timeout: 2000 }).then(() => true, () => false)) break;
      }
      await page.getByTestId('status-ok').waitFor();
      await screenshot(page, 'system-setting-status');
    } finally {
      await browser.close();
    }
  });

  it('a user chooses its notices and sees its chat bot unregistered on the notification setting screen', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await as(browser.context, 'user', user);
      await page.goto(`${server.url}/user/systemManagement`);
      const prefs = page.getByTestId('notify-preferences');
      await prefs.getByText('A node goes offline').waitFor();
      await prefs.getByLabel('My account signs in from a new address').uncheck();
      await prefs.locator('#email').click();
      await prefs.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      const saved = (await api(server, 'GET', 'user/setting/notify', { token: user })).body.data;
      expect(saved.email).toBe(false);
      expect(saved.events).not.toContain('login.newAddress');
      await page.getByTestId('bot-setting').getByText('No chat registered').waitFor();
      await screenshot(page, 'notify-setting-user');
    } finally {
      await browser.close();
    }
  });

  it('an admin finds its notification setting in the menu, registers its chat bot and gets the test message', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await as(browser.context, 'admin', admin);
      await page.goto(`${server.url}/admin/dashboard`);
      await page.getByRole('menuitem', { name: 'System management' }).click();
      await page.getByRole('menuitem', { name: 'Notification setting' }).click();
      await page.waitForURL('**/admin/systemManagement/notifySetting');
      const botCard = page.getByTestId('bot-setting');
      await botCard.getByText('No chat registered').waitFor();
      await botCard.locator('#enabled').click();
      await botCard.locator('#token').fill(BOT_TOKEN);
      await botCard.locator('#registerCommand').fill('/register root');
      await botCard.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      bot.chatSays(4040, '/register root');
      await botCard.getByRole('button', { name: 'Send test message' }).click();
      await waitForToast(page, 'Connection Success!');
      expect(bot.sent.at(-1)).toMatchObject({ token: BOT_TOKEN, chatId: '4040' });
      await botCard.getByTestId('bot-registered').getByText('Chat registered').waitFor();
      expect((await api(server, 'GET', 'admin/setting/tg', { token: admin })).body.data).toMatchObject({ enabled: true, registerCommand: '/register root', tokenSet: true });
      // Nothing of the admin's reached the client's own channel.
      expect((await api(server, 'GET', 'client/setting/tg', { token: client })).body.data.registerCommand).not.toBe('/register root');

      const prefs = page.getByTestId('notify-preferences');
      await prefs.getByLabel('My account signs in from a new address').uncheck();
      await prefs.getByRole('button', { name: 'Save' }).click();
      await waitForToast(page, 'Update Successful!');
      expect((await api(server, 'GET', 'admin/setting/notify', { token: admin })).body.data.events).not.toContain('login.newAddress');
      await screenshot(page, 'notify-setting-admin');
    } finally {
      await browser.close();
    }
  });
});
