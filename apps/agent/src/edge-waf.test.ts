import { access } from 'node:fs/promises';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyState } from './apply/apply';
import { httpCall, startMirror } from './test/http-call';
import { detectNginx, startEdge } from './test/nginx-harness';
import { requiredInCi } from './test/required-in-ci';
import { freePort } from './test/servers';

// The managed rule set needs Debian's libnginx-mod-http-modsecurity and modsecurity-crs (scripts/debian-packages.txt).
const nginx = await detectNginx();
const crs = await access('/usr/share/modsecurity-crs/rules').then(() => true, () => false);
const ready = requiredInCi(nginx.ok && crs, 'edge WAF tests need nginx with ModSecurity and the OWASP CRS');

describe.skipIf(!ready)('managed WAF rule set (ModSecurity + OWASP CRS) on real nginx', () => {
  let origin: Awaited<ReturnType<typeof startMirror>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let port: number;
  let controlPort: number;

  const stateWith = (revision: number, waf: edge.WafSetting | null) =>
    edge.desiredState.parse({
      revision,
      structure: {
        zone: { httpPorts: [port], httpsPorts: [port + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: 'guarded.example.com', origins: [{ host: '127.0.0.1', port: origin.port }], waf },
              { id: 12, name: 'open.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
            ],
          },
        ],
      },
    });

  const injection = `/items?id=${encodeURIComponent("1' OR '1'='1' UNION SELECT password FROM users --")}`;
  const get = (host: string, path: string) => httpCall({ port, path, headers: { host, 'user-agent': 'Mozilla/5.0 test', accept: 'text/html' } });

  beforeAll(async () => {
    origin = await startMirror();
    port = await freePort();
    controlPort = await freePort();
    node = await startEdge({ state: stateWith(1, { mode: 'block', paranoia: 1, excludedRules: [] }), controlPort });
  }, 120_000);
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('blocks an obvious SQL injection where the rule set is on, and not where it is off', async () => {
    expect((await get('guarded.example.com', '/items?id=42')).status).toBe(200);
    expect((await get('guarded.example.com', injection)).status).toBe(403);
    expect((await get('open.example.com', injection)).status).toBe(200);
  });

  it('only logs in detect mode, and lets excluded rules pass after a reload', async () => {
    const detect = await applyState({ state: stateWith(2, { mode: 'detect', paranoia: 1, excludedRules: [] }), prefix: node.prefix, controlPort });
    expect(detect.ok).toBe(true);
    expect((await get('guarded.example.com', injection)).status).toBe(200);
    const excluded = await applyState({ state: stateWith(3, { mode: 'block', paranoia: 1, excludedRules: [949110] }), prefix: node.prefix, controlPort });
    expect(excluded.ok).toBe(true);
    expect((await get('guarded.example.com', injection)).status).toBe(200);
    const off = await applyState({ state: stateWith(4, null), prefix: node.prefix, controlPort });
    expect(off.ok).toBe(true);
    expect((await get('guarded.example.com', injection)).status).toBe(200);
    const on = await applyState({ state: stateWith(5, { mode: 'block', paranoia: 2, excludedRules: [] }), prefix: node.prefix, controlPort });
    expect(on.ok).toBe(true);
    expect((await get('guarded.example.com', injection)).status).toBe(403);
  });
});
