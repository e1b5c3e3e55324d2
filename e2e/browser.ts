import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
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

/**
 * A fresh tab with no cookies and no stored language. The context's other tabs are closed first: they share its
 * cookies, and one that kept polling would meet the cleared session with a 401 and sign out the session this tab then
 * opens (the DNS setting screen's task poll did so once under load).
 */
export async function freshPage(context: BrowserContext, baseUrl: string) {
  const page = await context.newPage();
  await Promise.all(context.pages().filter((other) => other !== page).map((other) => other.close()));
  await context.clearCookies();
  await page.goto(`${baseUrl}/404`);
  await page.evaluate(() => localStorage.clear());
  return page;
}

/**
 * A full-page screenshot; CSS animations under way are finished first, so a dialog shows as it settles. `settle`: for
 * charts, which draw their animations frame by frame: shots are taken until two in a row are the same (at most 20).
 */
export async function screenshot(page: Page, name: string, { settle = false } = {}) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  const shoot = () => page.screenshot({ fullPage: true, animations: 'disabled' });
  let shot = await shoot();
  for (let i = 0; settle && i < 20; i++) {
    const next = await shoot();
    if (next.equals(shot)) break;
    shot = next;
  }
  fs.writeFileSync(file, shot);
  return file;
}

/** Picks a language in the header's or sign-in screen's switch. */
export async function switchLanguage(page: Page, name: string) {
  await page.getByTestId('language-switch').click();
  await page.locator('.ant-select-item-option', { hasText: name }).click();
}

/**
 * Opens `item` under the side menu's `group`, opening the group while it is closed: a re-render of the menu (the
 * language just switched) can close a group the test had opened, and a click on an open group's title closes it.
 */
export async function openMenuItem(page: Page, group: string, item: string) {
  const sider = page.locator('.ant-layout-sider');
  const title = sider.locator('.ant-menu-submenu-title', { hasText: group });
  const entry = sider.getByText(item, { exact: true });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
    try {
      return await entry.click({ timeout: 2000 });
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/** Waits for a success toast, then for it to go, so the next one is not confused with it. */
export async function waitForToast(page: Page, text: string) {
  const notice = page.locator('.ant-message-notice', { hasText: text });
  await notice.first().waitFor().catch(async (err: Error) => {
    // what the page showed instead, for a failure read off a CI log
    const shown = await page.locator('.ant-message-notice, .ant-modal:visible .ant-modal-title, .ant-modal:visible .ant-modal-confirm-title').allInnerTexts().catch(() => []);
    throw new Error(`${err.message}\nshown instead: ${JSON.stringify(shown)}`);
  });
  await notice.first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Picks `option` in the antd Select `select` from that select's own list (not another select's list left in the page),
 * after typing `search` into it when given (a long list shows only what fits), waits until the field shows it (clicking
 * the option again when a click chose nothing), and waits for the list to close: a multiple choice's list is closed with Escape while
 * it is open, so the key never reaches a dialog (under load, an open list lay over the next field, and an Escape that
 * came after a list had closed closed the dialog instead).
 */
export async function chooseOption(page: Page, select: Locator, option: string, { search }: { search?: string } = {}) {
  const input = select.locator('input').first();
  const list = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${await input.getAttribute('id')}_list"]`) });
  await select.click();
  if (search !== undefined) await input.pressSequentially(search);
  const item = list.locator('.ant-select-item-option', { hasText: option }).first();
  const shown = select.filter({ hasText: option });
  // Under load a click on an option still moving into place was seen to choose nothing: it is clicked again (the list
  // opened again if it closed), unless the option is chosen already, since a second click takes a multiple choice back.
  for (let tries = 1; ; tries++) {
    await item.click();
    const chosen = await shown.waitFor({ timeout: 5000 }).then(() => true, () => false);
    if (chosen) break;
    if (await item.evaluate((el) => el.classList.contains('ant-select-item-option-selected'))) {
      await shown.waitFor();
      break;
    }
    if (tries === 3) throw new Error(`"${option}" clicked ${tries} times in its list and never chosen`);
    if (!(await list.isVisible())) await select.click();
  }
  if (await select.evaluate((el) => el.classList.contains('ant-select-multiple'))) await input.press('Escape');
  await list.waitFor({ state: 'hidden' });
}

/**
 * Clicks `item` in the dropdown menu that `trigger` opens and waits for what it shows (`shown`): as with a list's
 * option, a click on an item still moving into place was seen to do nothing under load (the copy dialog never opened),
 * so the item is clicked again, the menu opened again first when it closed.
 */
export async function chooseMenuItem(page: Page, trigger: Locator, item: string, shown: Locator) {
  const entry = page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: item });
  for (let tries = 1; ; tries++) {
    if (!(await entry.isVisible())) await trigger.click();
    await entry.click();
    if (await shown.waitFor({ timeout: 5000 }).then(() => true, () => false)) return;
    if (tries === 3) throw new Error(`"${item}" clicked ${tries} times in its menu and never showed what it opens`);
  }
}

/** The dialog on top. */
export const topModal = (page: Page) => page.locator('.ant-modal:visible').last();

/** Waits, as a locator does, until the element with that test id reads exactly `text`. */
export async function waitForTextOf(page: Page, testId: string, text: string) {
  await page.waitForFunction(([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === want, [testId, text] as const);
}

/** Waits, as a locator does, until a field holds `value`. */
export async function waitForValue(field: Locator, value: string) {
  const element = await field.elementHandle();
  await field.page().waitForFunction(([el, want]) => (el as HTMLInputElement).value === want, [element, value] as const);
}

/** Waits, as a locator does, until the tab's title is `title` (or matches it). */
export async function waitForTitle(page: Page, title: string | RegExp) {
  const [source, exact] = typeof title === 'string' ? [title, true] : [title.source, false];
  await page.waitForFunction(([want, whole]) => (whole ? document.title === want : new RegExp(want).test(document.title)), [source, exact] as const);
}

/** For `afterEach`: fails the test during which a page threw or logged an error, and starts the next one with none. */
export function expectNoPageErrors(errors: string[]) {
  expect(errors.splice(0), 'errors the pages raised').toEqual([]);
}
