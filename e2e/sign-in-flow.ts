import type { Tier } from '@edgekeep/contract';
import type { Page } from 'playwright-core';
import type { startSmtpSink } from './harness';

type Smtp = Awaited<ReturnType<typeof startSmtpSink>>;

/** Signs in through the form with the code that arrives in the SMTP sink; answers the path it lands on. */
export async function signInThroughForm(page: Page, opts: { baseUrl: string; tier: Tier; email: string; password: string; smtp: Smtp }) {
  await page.goto(`${opts.baseUrl}/${opts.tier}/login`);
  await page.locator('#account').fill(opts.email);
  await page.locator('#password').fill(opts.password);
  const before = opts.smtp.mails.length;
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`**/${opts.tier}/login/verifyAccount`);
  const code = await opts.smtp.waitFor(opts.email, /code is (\d{6})/, before);
  await page.locator('#code').fill(code);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.includes('/login'));
  await page.getByTestId('self-summary').or(page.getByTestId('dns-type')).or(page.getByTestId('admin-dashboard')).waitFor();
  return new URL(page.url()).pathname;
}

/** Opens the console in English and signs in through the form an account without a second factor: straight to its dashboard. */
export async function signInWithoutCode(page: Page, opts: { baseUrl: string; tier: Tier; email: string; password: string }) {
  await page.evaluate(() => localStorage.setItem('language', 'en_US'));
  await page.goto(`${opts.baseUrl}/${opts.tier}/login`);
  await page.locator('#account').fill(opts.email);
  await page.locator('#password').fill(opts.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`**/${opts.tier}/dashboard`);
}
