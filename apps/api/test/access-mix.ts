import { enrolNode, logLine, postLogs } from './agent-logs';
import type { makeInfra } from './fixtures';
import { call, type TestApp } from './harness';

const MIN = 60_000;

/**
 * A known mix of access lines: six on user A's site (two domains, two 5-minute buckets ten minutes apart, two
 * refused), one on a second site of user A, one on user B's site. `base` is a 5-minute boundary half an hour ago.
 */
export async function seedAccessMix(t: TestApp, f: Awaited<ReturnType<typeof makeInfra>>) {
  const base = Math.floor(Date.now() / (5 * MIN)) * 5 * MIN - 30 * MIN;
  const at = (ms: number) => new Date(base + ms).toISOString();
  const siteA2 = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'site-a2', productID: f.a.product, userID: f.userA.id } })).body.data.id as number;
  const s = f.a.site;
  const a = [
    logLine({ siteId: s, time: at(10_000), requestId: 'r1', domain: 'www.a.example', uri: '/index.html', status: 200, country: 'TW', region: 'Taipei City', city: 'Taipei', isp: 'HiNet', bytesSent: 1000, referer: 'https://ref.example/page', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36' }),
    logLine({ siteId: s, time: at(MIN), requestId: 'r2', domain: 'www.a.example', uri: '/logo.png', status: 200, country: 'CN', region: 'Guangdong', city: 'Shenzhen', isp: 'China Telecom', clientIp: '2001:db8::1', bytesSent: 2000, cacheStatus: 'HIT', httpVersion: 'HTTP/2.0', upstreamTime: null }),
    logLine({ siteId: s, time: at(2 * MIN), requestId: 'r3', domain: 'img.a.example', uri: '/upload?x=1', method: 'POST', status: 404, country: 'CN', region: 'Beijing', city: 'Beijing', isp: 'China Unicom', clientIp: '203.0.113.9', bytesSent: 500, upstreamTime: 0.01 }),
    logLine({ siteId: s, time: at(3 * MIN), requestId: 'r4', domain: 'www.a.example', uri: '/admin', status: 403, country: 'US', clientIp: '203.0.113.50', bytesSent: 100, cacheStatus: '', upstreamTime: null, blockCause: '3', blockRule: '12:7', blockAction: 'block' }),
    logLine({ siteId: s, time: at(10 * MIN + 30_000), requestId: 'r5', domain: 'img.a.example', uri: '/x', status: 444, country: 'CN', clientIp: '203.0.113.9', bytesSent: 0, cacheStatus: '', upstreamTime: null, blockCause: '4', blockRule: '5:2', blockAction: 'drop' }),
    logLine({ siteId: s, time: at(11 * MIN), requestId: 'r6', domain: 'www.a.example', uri: '/old', method: 'HEAD', status: 301, country: 'TW', scheme: 'http', httpVersion: 'HTTP/1.0', bytesSent: 300, upstreamTime: 0.002 }),
  ];
  const a2 = [logLine({ siteId: siteA2, time: at(5 * MIN), requestId: 'r7', domain: 'shop.a2.example', bytesSent: 700 })];
  const b = [logLine({ siteId: f.b.site, time: at(MIN), requestId: 'r8', domain: 'www.b.example', bytesSent: 50_000 })];
  const nodeA = await enrolNode(t, f.tokens.clientA, f.a.node);
  const nodeB = await enrolNode(t, f.tokens.clientB, f.b.node);
  const batches: [string, unknown[]][] = [[nodeA, [...a, ...a2]], [nodeB, b]];
  for (const [node, lines] of batches) {
    const res = await postLogs(t, node, lines);
    if (res.status !== 200) throw new Error(`log batch refused: ${JSON.stringify(res.body)}`);
  }
  return { base, at, siteA2, lines: { a, a2, b }, nodeA };
}
