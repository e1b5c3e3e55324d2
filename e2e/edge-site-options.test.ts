import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { get } from '../apps/agent/src/test/servers';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await nginxForTests('edge end-to-end needs nginx with the Lua module');
const PASSWORD = 'edge options e2e password';

const post = ({ port, host, size }: { port: number; host: string; size: number }) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end(Buffer.alloc(size, 1));
  });

describe.skipIf(!nginx.ok)('site settings made through the API take effect on a real node', () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let origin: EdgeStack['origin'];
  let httpPort: number;
  let client: string;
  let user: string;
  let ids: EdgeStack['ids'];
  const HOST = 'shop.options.test';
  const served = (pathName: string) => get({ port: httpPort, host: HOST, path: pathName });
  const site = (rest: string) => `user/site/${ids.site}/${rest}`;
  /** Waits until the node has applied the newest revision of its zone. */
  const applied = async (client: string) =>
    until('the node to apply the newest revision', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.appliedRevision === n.revision && n.applyError === null ? n : undefined;
    });

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'options-origin' });
    ({ server, origin, httpPort, client, user, ids } = stack);
    await api(server, 'POST', `user/site/${ids.site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    await api(server, 'POST', site('cacheRule'), { token: user, body: { type: 'fileTypes', values: ['png'], seconds: 300, mode: 'force' } });
    await until('the domain to be served', async () => ((await served('/')).status === 200 ? true : undefined), 60_000);
  });

  afterAll(() => stack?.stop());

  it('warms the cache: the node fetches the URLs and the next visitor gets a HIT; the task says done', async () => {
    const task = await api(server, 'POST', site('setting/cacheTask'), { token: user, body: { type: 'warm', urls: `http://${HOST}/warm/a.png\nhttp://${HOST}/warm/b.png` } });
    expect(task.body.data).toMatchObject({ status: 'queued', nodes: 1 });
    const done = await until('the warm task to finish', async () => {
      const [t] = (await api(server, 'GET', site('setting/cacheTasks'), { token: user })).body.data;
      return t.status === 'done' ? t : undefined;
    });
    expect(done.messages).toEqual(['2 of 2 URLs fetched through the edge']);
    const hits = origin.hits.length;
    expect((await served('/warm/a.png')).headers['x-cache']).toBe('HIT');
    expect((await served('/warm/b.png')).headers['x-cache']).toBe('HIT');
    expect(origin.hits.length).toBe(hits);
  });

  it('purges a URL prefix (type 2): everything under it is fetched anew, the rest stays cached', async () => {
    await served('/keep/c.png');
    expect((await served('/keep/c.png')).headers['x-cache']).toBe('HIT');
    const purge = await api(server, 'DELETE', site('setting/urlCache'), { token: user, body: { type: 2, urls: `http://${HOST}/warm/` } });
    expect(purge.body.data).toEqual({ nodes: 1 });
    await until('the prefix purge', async () => ((await served('/warm/a.png')).headers['x-cache'] === 'MISS' ? true : undefined));
    expect((await served('/keep/c.png')).headers['x-cache']).toBe('HIT');
  });

  it('refuses a body over the site limit with 413 once set, and takes it with the check off', async () => {
    await api(server, 'PUT', site('setting/clientMaxBodySize'), { token: user, body: { clientMaxBodySize: 1 } });
    await applied(client);
    expect(await post({ port: httpPort, host: HOST, size: 2 * 1024 * 1024 })).toBe(413);
    await api(server, 'PUT', site('setting/clientMaxBodySize'), { token: user, body: { clientMaxBodySize: 0 } });
    await applied(client);
    expect(await post({ port: httpPort, host: HOST, size: 2 * 1024 * 1024 })).toBe(200);
  });
});
