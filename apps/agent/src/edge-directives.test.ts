import { edge } from '@edgekeep/contract';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyState } from './apply/apply';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with Lua');

describe.skipIf(!nginx.ok)("a client's nginx directives and default error pages at the edge", () => {
  let origin: ReturnType<typeof createServer>;
  let originPort: number;
  let httpPort: number;
  let controlPort: number;
  let httpsPort: number;
  let node: Awaited<ReturnType<typeof startEdge>>;

  const state = (revision: number, directives: object = {}, errorPages: object[] = []) =>
    edge.desiredState.parse({
      revision,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 1 }, directives },
        sites: [{ id: 1, name: 'shop', errorPages, domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: originPort }] }] }],
      },
    });
  const apply = (s: edge.DesiredState) => applyState({ state: s, prefix: node.prefix, controlPort });
  const shop = (path = '/', headers: Record<string, string> = {}) => send({ port: httpPort, host: 'shop.example.com', path, headers });

  beforeAll(async () => {
    origin = createServer((req, res) => {
      res.statusCode = req.url === '/broken' ? 502 : 200;
      res.end('origin');
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
    [httpPort, httpsPort, controlPort] = [await freePort(), await freePort(), await freePort()];
    node = await startEdge({ state: state(1), controlPort });
  });
  afterAll(async () => {
    await node?.stop();
    await new Promise((r) => origin?.close(r));
  });

  it('puts the http, stream, worker and custom directives where they belong, and nginx acts on them', async () => {
    const directives = { main: 'worker_rlimit_nofile 4096;', http: 'large_client_header_buffers 2 1k;', stream: 'proxy_buffer_size 32k;', server: 'add_header X-Edge acme always;' };
    const applied = await apply(state(2, directives));
    expect(applied).toMatchObject({ ok: true, reloaded: true });
    const conf = await readFile(join(node.prefix, 'conf', 'nginx.conf'), 'utf8');
    expect(conf).toMatch(/worker_processes 1;\nworker_rlimit_nofile 4096;/);
    expect(conf).toMatch(/http \{[\s\S]*large_client_header_buffers 2 1k;[\s\S]*include sites\/\*\.conf;/);
    expect(conf).toMatch(/stream \{[\s\S]*proxy_buffer_size 32k;/);
    const ok = await shop();
    expect([ok.status, ok.headers['x-edge']]).toEqual([200, 'acme']);
    expect((await shop('/', { 'x-long': 'a'.repeat(1500) })).status).toBe(400);
  });

  it('refuses directives nginx -t rejects: the node keeps serving its last good configuration and says why', async () => {
    const refused = await apply(state(3, { server: 'add_header X-Edge acme always;\nproxy_read_timeout sometimes;' }));
    expect(refused).toMatchObject({ ok: false, stage: 'test' });
    expect(refused.ok === false && refused.error).toContain('proxy_read_timeout');
    const duplicate = await apply(state(4, { http: 'client_max_body_size 1m;' }));
    expect(duplicate.ok === false && duplicate.error).toContain('duplicate');
    const still = await shop();
    expect([still.status, still.headers['x-edge']]).toEqual([200, 'acme']);
  });

  it("serves a site's error pages, the client's defaults among them", async () => {
    const applied = await apply(state(5, {}, [{ status: 502, type: 'content', body: '<h1>Acme is back soon</h1>' }]));
    expect(applied.ok).toBe(true);
    const res = await shop('/broken');
    expect([res.status, res.body]).toEqual([502, '<h1>Acme is back soon</h1>']);
  });

  it("runs a live domain's access steps after nginx's own access directives of the zone, and without them right after the rewrite", async () => {
    const blacklisted = (revision: number, directives: object) =>
      edge.desiredState.parse({ ...state(revision, directives), data: { sites: [{ siteId: 1, blacklist: ['127.0.0.1'] }] } });
    expect((await apply(blacklisted(6, { server: 'deny 127.0.0.1;' }))).ok).toBe(true);
    expect(await readFile(join(node.prefix, 'conf', 'nginx.conf'), 'utf8')).toContain('access_by_lua_block { ek_live.access(false) }');
    expect((await shop()).status).toBe(403);
    expect((await apply(blacklisted(7, {}))).ok).toBe(true);
    expect(await readFile(join(node.prefix, 'conf', 'nginx.conf'), 'utf8')).toContain('rewrite_by_lua_block { local go, view = ek_live.route() if go then ek_live.access(false, view) end }');
    expect((await shop()).status).toBe(929);
  });
});
