import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { controlStatus } from '../apps/agent/src/control/client';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { requiredInCi } from '../apps/agent/src/test/required-in-ci';
import { get } from '../apps/agent/src/test/servers';
import { pebbleInstalled, startPebble, type Pebble } from '../apps/api/test/pebble';
import { freshPage, launchBrowser, screenshot, waitForToast } from './browser';
import { api } from './harness';
import { signInThroughForm } from './sign-in-flow';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await detectNginx();
const ready = requiredInCi(nginx.ok && pebbleInstalled(), `automatic certificates end-to-end needs nginx with Lua and pebble: ${nginx.ok ? 'pebble missing' : nginx.reason}`);
const PASSWORD = 'acme e2e password';

/** What the edge presents for a name by SNI, as openssl s_client sees it: the leaf's subject, issuer and serial. */
async function presented(port: number, servername: string) {
  const { stdout } = await promisify(execFile)('sh', ['-c', `openssl s_client -connect 127.0.0.1:${port} -servername ${servername} </dev/null 2>/dev/null | openssl x509 -noout -subject -issuer -serial -ext subjectAltName`]);
  return stdout;
}

describe.skipIf(!ready)('auto SSL on → ACME order → certificate served by the edge, for real', () => {
  let stack: EdgeStack;
  let pebble: Pebble;

  const nginxLoads = async () => (await controlStatus({ control: { port: stack.controlPort, token: await readControlToken({ prefix: stack.prefix }) } })).loads;
  const stateOf = async (name: string) => {
    const r = await api(stack.server, 'GET', `user/site/${stack.ids.site}/autoCertificates`, { token: stack.user });
    return r.body.data.find((d: { domainName: string }) => d.domainName === name);
  };
  /** A domain of the user's site, served by the edge over HTTP; answers its id. */
  const servedDomain = async (name: string) => {
    const made = await api(stack.server, 'POST', `user/site/${stack.ids.site}/domains`, {
      token: stack.user,
      body: { domains: name, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] },
    });
    await until('the domain to be served', async () => ((await get({ port: stack.httpPort, host: name })).status === 200 ? true : undefined));
    return made.body.data[0].id as number;
  };
  /** Switches auto SSL on for a domain and waits until its certificate is issued and presented by SNI. */
  const issued = async (name: string, id: number) => {
    await api(stack.server, 'POST', `user/site/${stack.ids.site}/domain/setting/autoSSL`, { token: stack.user, body: { ids: [id], autoSSL: true } });
    const state = await until('the certificate to be issued', async () => {
      const s = await stateOf(name);
      if (s?.status === 'failed') throw new Error(`the order failed: ${s.error}`);
      return s?.status === 'completed' ? s : undefined;
    }, 60_000);
    const seen = await until('the edge to present it', async () => {
      const out = await presented(stack.httpsPort, name).catch(() => '');
      return /Pebble/.test(out) ? out : undefined;
    });
    return { state, seen };
  };

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'secure-origin', serverEnv: { ACME_QUEUE_SECONDS: '1' } });
    pebble = await startPebble({ httpPort: stack.httpPort });
    const saved = await api(stack.server, 'PUT', 'client/setting/system/zeroSSL', {
      token: stack.client,
      body: { provider: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle },
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
    await pebble?.stop();
  });

  // Each test has a name under a registered domain of its own, so its certificate budget counts its orders alone.
  it('answers the HTTP-01 challenge from the edge, then serves the issued certificate by SNI', async () => {
    const name = 'secure.example.com';
    const id = await servedDomain(name);
    expect((await get({ port: stack.httpPort, host: name, path: '/.well-known/acme-challenge/nothing' })).status).toBe(404);
    const started = Date.now();
    const { state, seen } = await issued(name, id);
    expect(state).toMatchObject({ hint: null, error: null, certificateId: expect.any(Number) });
    expect(seen).toContain(`DNS:${name}`);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('renews on reapply: the new certificate is served on the next handshake, without a reload', async () => {
    const name = 'renew.example.org';
    const { seen: before } = await issued(name, await servedDomain(name));
    const loads = await nginxLoads();
    const [row] = (await api(stack.server, 'GET', `client/autoCertificates?keyword=${name}`, { token: stack.client })).body.data;
    expect((await api(stack.server, 'POST', 'client/autoCertificates/renew', { token: stack.client, body: { ids: [row.id] } })).body.data).toEqual({ queued: 1 });
    const after = await until('the renewed certificate to be presented', async () => {
      const out = await presented(stack.httpsPort, name).catch(() => '');
      const serial = /serial=(\w+)/.exec(out)?.[1];
      return serial && serial !== /serial=(\w+)/.exec(before)?.[1] ? out : undefined;
    }, 60_000);
    expect(after).toMatch(/Pebble/);
    expect(await nginxLoads()).toBe(loads);
    expect((await stateOf(name)).status).toBe('completed');
  });

  it('shows the certificate on the autoSSLManagement screen, with its expiry and budget, and reapplies it from there', async () => {
    const name = 'screen.example.net';
    await issued(name, await servedDomain(name));
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, stack.server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await signInThroughForm(page, { baseUrl: stack.server.url, tier: 'client', email: 'ops@example.com', password: PASSWORD, smtp: stack.smtp });
      await page.goto(`${stack.server.url}/client/nodeManage/autoSSLManagement`);
      const row = page.locator('tr', { hasText: name });
      await row.locator('.ant-tag', { hasText: 'Completed' }).waitFor();
      await row.getByText('1 / 50 (example.net)').waitFor();
      await screenshot(page, 'auto-ssl-management');
      const before = await presented(stack.httpsPort, name);
      await row.getByRole('button', { name: 'Reapply' }).click();
      await waitForToast(page, 'Queued: the certificates are being applied for');
      await row.getByText('2 / 50 (example.net)').waitFor({ timeout: 60_000 });
      await row.locator('.ant-tag', { hasText: 'Completed' }).waitFor();
      expect(await presented(stack.httpsPort, name)).not.toBe(before);

      // The user sees the state on the site's domains and certificates.
      const user = await freshPage(browser.context, stack.server.url);
      await user.evaluate(() => localStorage.setItem('language', 'en_US'));
      await signInThroughForm(user, { baseUrl: stack.server.url, tier: 'user', email: 'shop@example.com', password: PASSWORD, smtp: stack.smtp });
      await user.goto(`${stack.server.url}/user/sitesManagement/sitesSetting/${stack.ids.site}/shop?tab=domains`);
      await user.locator('tr', { hasText: name }).locator('.ant-tag', { hasText: 'Completed' }).waitFor();
      await user.goto(`${stack.server.url}/user/sitesManagement/sitesSetting/${stack.ids.site}/shop?tab=certificates`);
      await user.locator('tr', { hasText: name }).locator('.ant-tag', { hasText: 'Completed' }).waitFor();
      await screenshot(user, 'auto-ssl-site-certificates');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
