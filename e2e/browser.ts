import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './harness';

export const ARTIFACTS = path.join(ROOT, 'test-results');

/** Debian's Chromium with a fresh profile; `errors` collects what the pages threw or logged as errors. */
export async function launchBrowser() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1366, height: 820 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Several tabs take turns in one test: a tab in the background must keep running its timers and animations.
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
      '--disable-renderer-backgrounding',
    ],
  });
  // A step that waits longer than this has failed; the error then names the step.
  context.setDefaultTimeout(20_000);
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(`console: ${msg.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    errors,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh tab with no cookies and no stored language. */
export async function freshPage(context: BrowserContext, baseUrl: string) {
  await context.clearCookies();
  const page = await context.newPage();
  await page.goto(`${baseUrl}/404`);
  await page.evaluate(() => localStorage.clear());
  return page;
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Picks a language in the header's or sign-in screen's switch. */
export async function switchLanguage(page: Page, name: string) {
  await page.getByTestId('language-switch').click();
  await page.locator('.ant-select-item-option', { hasText: name }).click();
}

/** Waits for a success toast, then for it to go, so the next one is not confused with it. */
export async function waitForToast(page: Page, text: string) {
  const notice = page.locator('.ant-message-notice', { hasText: text });
  await notice.first().waitFor();
  await notice.first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** The dialog on top. */
export const topModal = (page: Page) => page.locator('.ant-modal:visible').last();
