import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { controlStatus } from '../apps/agent/src/control/client';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { requiredInCi } from '../apps/agent/src/test/required-in-ci';
import { httpCall } from '../apps/agent/src/test/http-call';
import { get } from '../apps/agent/src/test/servers';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await nginxForTests('edge end-to-end needs nginx with the Lua module');
const PASSWORD = 'modules edge e2e password';

describe.skipIf(!nginx.ok)('site modules: API → agent → nginx, for real', () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let origin: EdgeStack['origin'];
  let httpPort: number;
  let controlPort: number;
  let user: string;
  let ids: EdgeStack['ids'];

  const served = (host: string, pathName = '/') => get({ port: httpPort, host, path: pathName });
  /** How many times nginx loaded a configuration, from its control endpoint: a reload raises it. */
  const nginxLoads = async () => (await controlStatus({ control: { port: controlPort, token: await readControlToken({ prefix: stack.prefix }) } })).loads;

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'shop-origin' });
    ({ server, origin, httpPort, controlPort, user, ids } = stack);
  });

  afterAll(() => stack?.stop());

  let domainId: number;
  const at = (rest: string) => `user/site/${ids.site}/${rest}`;

  it('serves a domain with a custom-header module and a redirect module, pushed without a reload', async () => {
    await api(server, 'POST', at('domains'), { token: user, body: { domains: 'mods.example.test', upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    domainId = (await api(server, 'GET', at('domains'), { token: user })).body.data[0].id;
    await until('mods.example.test to be served', async () => ((await served('mods.example.test', '/')).status === 200 ? true : undefined));
    const loads = await nginxLoads();
    const headers = (await api(server, 'PUT', at('module/customHeader'), { token: user, body: { name: 'security' } })).body.data.id;
    await api(server, 'PUT', at(`customHeader/${headers}/header`), { token: user, body: { type: 'response', action: 'set', name: 'X-Frame-Options', value: 'DENY' } });
    const moves = (await api(server, 'POST', at('urlRedirects'), { token: user, body: { name: 'moves' } })).body.data.id;
    await api(server, 'PUT', at(`urlRedirect/${moves}/url`), { token: user, body: { match: 'exact', source: '/old', target: '/new', code: 301 } });
    await api(server, 'PUT', at('domains/module/customHeader'), { token: user, body: { domainIDs: [domainId], moduleID: headers } });
    await api(server, 'PUT', at('domains/module/urlRedirect'), { token: user, body: { domainIDs: [domainId], moduleID: moves } });
    const answer = await until('the header to be served', async () => {
      const r = await served('mods.example.test', '/page');
      return r.headers['x-frame-options'] === 'DENY' ? r : undefined;
    });
    expect(answer.status).toBe(200);
    const moved = await until('the redirect', async () => {
      const r = await served('mods.example.test', '/old');
      return r.status === 301 ? r : undefined;
    });
    expect(moved.headers.location).toMatch(/\/new$/);
    expect(await nginxLoads()).toBe(loads);
  });

  // The managed rule set needs libnginx-mod-http-modsecurity and modsecurity-crs (scripts/debian-packages.txt).
  it.skipIf(!requiredInCi(fs.existsSync('/usr/share/modsecurity-crs/rules'), 'the managed WAF needs ModSecurity and the OWASP CRS'))('turns the managed WAF on for the domain (a reload) and blocks an SQL injection, then off again', async () => {
    const injection = `/items?id=${encodeURIComponent("1' OR '1'='1' UNION SELECT password FROM users --")}`;
    const call = () => httpCall({ port: httpPort, path: injection, headers: { host: 'mods.example.test', 'user-agent': 'Mozilla/5.0', accept: 'text/html' } });
    expect((await call()).status).toBe(200);
    const waf = (await api(server, 'POST', at('module/wafs'), { token: user, body: { name: 'crs', mode: 'block', paranoia: 1 } })).body.data.id;
    await api(server, 'PUT', at('domains/module/waf'), { token: user, body: { domainIDs: [domainId], moduleID: waf } });
    await until('the WAF to block', async () => ((await call()).status === 403 ? true : undefined), 60_000);
    expect((await served('mods.example.test', '/items?id=42')).status).toBe(200);
    await api(server, 'PUT', at('domains/module/waf'), { token: user, body: { domainIDs: [domainId], moduleID: 0 } });
    await until('the WAF to be off', async () => ((await call()).status === 200 ? true : undefined), 60_000);
  });
});
