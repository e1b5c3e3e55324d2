import http from 'node:http';
import net from 'node:net';
import type { Logger } from 'pino';
import { DEMO_ABUSER_IP } from './demo';

/** What one demo visitor does; `from` is the loopback address it sends from; `l4` goes through the layer-4 port. */
type Visit = { weight: number; path: () => string; from: () => string; agent: string; referer?: string; l4?: boolean };

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];
/** Ordinary visitors come from a handful of loopback addresses, so the client-address tops have several. */
const visitor = () => `127.0.0.${1 + Math.floor(Math.random() * 8)}`;

/** The scripts a page of the demo site loads: a few, asked for again and again, so most come from the edge's cache. */
const PAGE_SCRIPTS = 6;

/**
 * DEMO=1 with the local edge: a light, steady stream of real requests through it, so that the demo's statistics
 * and logs show what nginx really served: pages, scripts the edge caches, a missing page, a scanner and a
 * WordPress probe the advanced firewall refuses, an address on the blacklist, and connections through the site's
 * layer-4 port (which the blacklisted address may not open either). About one request a second.
 */
export function startDemoTraffic({ port, l4Port, host, log, assets }: { port: number; l4Port: number; host: string; log: Logger; assets: () => Promise<string[]> }) {
  let files: string[] = [];
  const script: Visit = { weight: 30, path: () => (files.length ? pick(files) : '/'), from: visitor, agent: pick(BROWSERS), referer: `http://${host}/` };
  const visits: Visit[] = [
    { weight: 30, path: () => pick(['/', '/user/login', '/client/login']), from: visitor, agent: pick(BROWSERS), referer: 'https://www.example.com/' },
    script,
    { weight: 5, path: () => '/favicon.ico', from: visitor, agent: pick(BROWSERS) },
    { weight: 4, path: () => `/assets/missing-${Math.floor(Math.random() * 5)}.js`, from: visitor, agent: 'curl/8.11.0' },
    { weight: 3, path: () => '/?id=1%27%20OR%201=1', from: () => '127.0.0.9', agent: 'sqlmap/1.8.11#stable (https://sqlmap.org)' },
    { weight: 3, path: () => '/wp-login.php', from: () => '127.0.0.9', agent: 'Mozilla/5.0 (compatible; WPScan)' },
    { weight: 3, path: () => '/', from: () => DEMO_ABUSER_IP, agent: 'python-requests/2.32' },
    { weight: 2, path: () => '/', from: visitor, agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    { weight: 6, path: () => '/favicon.ico', from: visitor, agent: 'demo-l4-client', l4: true },
    { weight: 2, path: () => '/', from: () => DEMO_ABUSER_IP, agent: 'demo-l4-client', l4: true },
  ];
  const total = visits.reduce((n, v) => n + v.weight, 0);
  const choose = () => {
    let at = Math.random() * total;
    for (const v of visits) if ((at -= v.weight) < 0) return v;
    return visits[0];
  };

  /** One TCP connection through the layer-4 port carrying a plain HTTP/1.0 request, read until the far end closes. */
  const connect = (v: Visit, path: string) =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: l4Port, localAddress: v.from(), timeout: 5000 }, () => {
        socket.end(`GET ${path} HTTP/1.0\r\nHost: ${host}\r\nUser-Agent: ${v.agent}\r\n\r\n`);
      });
      socket.on('data', () => undefined);
      socket.on('timeout', () => socket.destroy());
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });

  const request = (v: Visit, path: string) =>
    new Promise<void>((resolve) => {
      const headers: Record<string, string> = { host, 'user-agent': v.agent };
      if (v.referer) headers.referer = v.referer;
      const req = http.get({ host: '127.0.0.1', port, path, headers, localAddress: v.from(), timeout: 5000 }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve());
    });
  const send = (v: Visit, path = v.path()) => (v.l4 ? connect(v, path) : request(v, path));
  /**
   * The first visits: one of each kind, and a script twice (the edge caches it, then answers from its cache), so a
   * demo just started shows every kind of traffic after its first dozen visits rather than when chance gets to it.
   */
  let firstRound: (() => Promise<void>)[] | undefined;
  const makeFirstRound = () => {
    const path = script.path();
    return [...visits, script].map((v) => () => send(v, v === script ? path : v.path()));
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    if (!files.length) files = (await assets().catch(() => [])).sort().slice(0, PAGE_SCRIPTS);
    firstRound ??= makeFirstRound();
    await (firstRound.shift() ?? (() => send(choose())))();
    if (!stopped) timer = setTimeout(tick, 400 + Math.random() * 1200);
  };
  timer = setTimeout(tick, 3000);
  log.info({ port, l4Port, host }, 'DEMO: sending a light stream of requests through the local edge');
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
