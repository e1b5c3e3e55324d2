import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot } from './browser';
import { createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const EMAIL = 'ops@example.com';
const STEP = 30;

/** A code of the time step after `lastStep`, once the clock allows it (the server refuses a step used before). */
async function codeAfter(secret: string, lastStep: number) {
  while (Math.floor(Date.now() / 1000 / STEP) < lastStep) await new Promise((r) => setTimeout(r, 500));
  const step = lastStep + 1;
  return { step, code: await generate({ secret, epoch: step * STEP }) };
}

async function openUserInformation(page: Page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: '用戶資訊' }).click();
  await page.getByTestId('two-factor').waitFor();
}

describe('two-factor authentication from the user information screen', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url });
    await createAccountCli(server, ['--auth', 'client', '--email', EMAIL, '--password', PASSWORD]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('turns the authenticator on with the mailed code and the QR code, signs in with it, turns it off', async () => {
    const page = await freshPage(browser.context, server.url);
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: EMAIL, password: PASSWORD, smtp });
    await openUserInformation(page);
    const card = page.getByTestId('two-factor');

    // Phase 0 mails a code, phase 1 answers the QR code of a new secret, phase 2 confirms a code of it.
    const before = smtp.mails.length;
    await card.getByRole('button', { name: '設定驗證器 App' }).click();
    await card.locator('input').fill(await smtp.waitFor(EMAIL, /verification code is (\d{6})/, before));
    await card.getByRole('button', { name: '下一步' }).click();
    await card.locator('img[src^="data:image/png"]').waitFor();
    const uri = (await card.getByTestId('otpauth-uri').textContent())!;
    const secret = new URL(uri).searchParams.get('secret')!;
    await screenshot(page, 'client-two-factor-qr');
    let last = await codeAfter(secret, Math.floor(Date.now() / 1000 / STEP) - 1);
    await card.locator('input').fill(last.code);
    await card.getByRole('button', { name: '下一步' }).click();
    await page.getByText('驗證器 App 已啟用。').waitFor();
    await page.getByTestId('self-summary').getByText('驗證器 App').waitFor();

    // Signing in now asks for the authenticator's code instead of mailing one.
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '登出' }).click();
    await page.waitForURL('**/client/login');
    await page.locator('#account').fill(EMAIL);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.getByText('請輸入驗證器 App 上的 6 位數驗證碼。').waitFor();
    last = await codeAfter(secret, last.step);
    await page.locator('#code').fill(last.code);
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/client/systemManagement/dnsSetting');

    // Turning it off is verified by the authenticator first.
    await openUserInformation(page);
    await card.getByRole('button', { name: '關閉驗證器 App' }).click();
    await card.getByText('請輸入驗證器 App 上的驗證碼以關閉它。').waitFor();
    last = await codeAfter(secret, last.step);
    await card.locator('input').fill(last.code);
    await card.getByRole('button', { name: '下一步' }).click();
    await page.getByText('驗證器 App 已關閉，驗證碼改以電子郵件寄送。').waitFor();
    await page.getByTestId('self-summary').getByText('電子郵件驗證碼').waitFor();
    expect(browser.errors).toEqual([]);
  });
});
