import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { send } from '../apps/agent/src/test/requests';
import { freePort } from '../apps/agent/src/test/servers';
import { freshPage, launchBrowser, screenshot, topModal, waitForTitle, waitForToast } from './browser';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await nginxForTests('edge end-to-end needs nginx with the Lua module');
const PASSWORD = 'client settings e2e password';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');

describe.skipIf(!nginx.ok)("a client's branding and system settings, in the browser and on a real node", () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let client: string;
  const HOST = 'shop.settings.test';
  const DOWN = 'down.settings.test';
  const node = async () => (await api(server, 'GET', `client/nodes?zoneID=${stack.ids.zone}`, { token: client })).body.data[0];
  /** Waits until the node has applied the newest revision of its zone. */
  const applied = () => until('the node to apply the newest revision', async () => {
    const n = await node();
    return n.appliedRevision === n.revision && n.applyError === null ? n : undefined;
  });
  const shop = (headers: Record<string, string> = {}) => send({ port: stack.httpPort, host: HOST, headers });

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'settings-origin' });
    ({ server, client } = stack);
    const site = `user/site/${stack.ids.site}/domains`;
    await api(server, 'POST', site, { token: stack.user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] } });
    // An origin nobody listens on: nginx answers 502 for it.
    await api(server, 'POST', site, { token: stack.user, body: { domains: DOWN, upstreams: [{ host: '127.0.0.1', port: await freePort() }] } });
    await until('the domain to be served', async () => ((await shop().catch(() => undefined))?.status === 200 ? true : undefined), 60_000);
  });

  afterAll(() => stack?.stop());

  it("serves the client's default error page where the site has none of its own", async () => {
    const page = await api(server, 'POST', 'client/setting/errorPage', { token: client, body: { status: 502, type: 'content', body: '<h1>Settings e2e: back soon</h1>' } });
    expect(page.status).toBe(200);
    await applied();
    const res = await send({ port: stack.httpPort, host: DOWN });
    expect([res.status, res.body]).toEqual([502, '<h1>Settings e2e: back soon</h1>']);
  });

  it('puts an http directive into the real nginx config; a custom one nginx -t refuses never reaches the node, which keeps serving', async () => {
    expect((await api(server, 'PUT', 'client/setting/nginx/http', { token: client, body: { directives: 'large_client_header_buffers 4 1k;' } })).status).toBe(200);
    await applied();
    expect(fs.readFileSync(path.join(stack.prefix, 'conf', 'nginx.conf'), 'utf8')).toContain('large_client_header_buffers 4 1k;');
    expect((await shop({ 'x-long': 'a'.repeat(1500) })).status).toBe(400);

    // The console's machine has the edge's nginx: it tests the value first, and the zone never gets it.
    const revision = (await node()).revision;
    const refused = await api(server, 'PUT', 'client/setting/nginx/custom', { token: client, body: { directives: 'proxy_read_timeout sometimes;' } });
    expect([refused.status, refused.body.code]).toEqual([400, 101003]);
    const { extra } = refused.body as { extra: { fields: { message: string }[] } };
    expect(extra.fields[0].message).toContain('"proxy_read_timeout" directive invalid value');
    expect((await node()).revision).toBe(revision);
    expect((await shop()).status).toBe(200);
    expect((await api(server, 'GET', 'client/setting/nginx', { token: client })).body.data).toMatchObject({ custom: '', refusals: [] });
  });

  it('customizeLogo: the uploaded title, logo, favicon and copyright show on the sign-in page and in the shell', async () => {
    const browser = await launchBrowser();
    const files = fs.mkdtempSync(path.join(server.dataDir, 'upload-'));
    fs.writeFileSync(path.join(files, 'logo.png'), PNG);
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await browser.context.addCookies(['accessToken', 'refreshToken', 'tokenType'].map((k) => ({ name: `c_${k}`, value: k === 'tokenType' ? 'Bearer' : k === 'accessToken' ? client : 'unused', url: server.url })));
      await page.goto(`${server.url}/client/userManagement/customizeLogo`);
      await page.getByTestId('branding-title').fill('Settings E2E CDN');
      await page.getByTestId('branding-copyright').fill('© Settings E2E');
      await page.getByTestId('branding-file-logo').setInputFiles(path.join(files, 'logo.png'));
      await page.getByTestId('branding-file-favicon').setInputFiles(path.join(files, 'logo.png'));
      await page.getByTestId('branding-save').click();
      await waitForToast(page, 'Update Successful!');
      await page.getByTestId('branding-preview-logo').waitFor();
      // inside the shell the tab names the screen, then the brand
      await waitForTitle(page, 'Branding · Settings E2E CDN');
      await screenshot(page, 'customize-logo');

      const signIn = await freshPage(browser.context, server.url);
      await signIn.goto(`${server.url}/user/login`);
      await signIn.getByRole('heading', { name: 'Settings E2E CDN' }).waitFor();
      await signIn.getByText('© Settings E2E').waitFor();
      const logo = signIn.locator('img[src*="/api/v1/branding/"]');
      await logo.waitFor();
      expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
      expect(await signIn.title()).toBe('Settings E2E CDN');
      expect(await signIn.locator('link[rel="icon"]').getAttribute('href')).toMatch(/\/api\/v1\/branding\/\d+\/favicon\?v=/);
      await screenshot(signIn, 'customize-logo-sign-in');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('nginxSetting: saves the http directives with the spec message, and refuses a block before sending it', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await browser.context.addCookies(['accessToken', 'refreshToken', 'tokenType'].map((k) => ({ name: `c_${k}`, value: k === 'tokenType' ? 'Bearer' : k === 'accessToken' ? client : 'unused', url: server.url })));
      await page.goto(`${server.url}/client/systemManagement/nginxSetting`);
      const box = page.getByTestId('nginx-http');
      expect(await box.inputValue()).toBe('large_client_header_buffers 4 1k;');
      await box.fill('location / { return 200; }');
      await page.getByTestId('nginx-save-http').click();
      await page.getByText('blocks ({ }) are not allowed').waitFor();
      await box.fill('large_client_header_buffers 4 8k;\nclient_body_timeout 30s;');
      await page.getByTestId('nginx-save-http').click();
      await waitForToast(page, 'Set Nginx Http Success!');
      expect((await api(server, 'GET', 'client/setting/nginx', { token: client })).body.data.http).toBe('large_client_header_buffers 4 8k;\nclient_body_timeout 30s;');
      await screenshot(page, 'nginx-setting');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('errorSetting and perdefinedSetting: a default error page is added from its form, and the trigger rates are saved', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await browser.context.addCookies(['accessToken', 'refreshToken', 'tokenType'].map((k) => ({ name: `c_${k}`, value: k === 'tokenType' ? 'Bearer' : k === 'accessToken' ? client : 'unused', url: server.url })));
      await page.goto(`${server.url}/client/systemManagement/errorSetting`);
      await page.locator('.ant-table-row', { hasText: '502' }).waitFor();
      await page.getByTestId('default-error-add').click();
      await page.getByTestId('default-error-status').click();
      await page.locator('.ant-select-item-option', { hasText: '504' }).click();
      await topModal(page).locator('textarea#body').fill('<h1>Slow origin</h1>');
      await topModal(page).getByRole('button', { name: /OK/ }).click();
      await waitForToast(page, 'Create Successful!');
      await page.locator('.ant-table-row', { hasText: 'Slow origin' }).waitFor();

      await page.goto(`${server.url}/client/systemManagement/perdefinedSetting`);
      const firstRequests = page.locator('input.ant-input-number-input').first();
      await firstRequests.fill('75');
      await page.getByTestId('rates-save').click();
      await waitForToast(page, 'Set Success!');
      expect((await api(server, 'GET', 'client/setting/frequency', { token: client })).body.data.rates[0]).toEqual({ name: 'Normal', requests: 75, seconds: 10 });
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
