import { edge } from '@edgekeep/contract';

/** Placeholder PEM blocks, not a real certificate: the renderer only copies them into the release. */
export const TEST_CERT = {
  id: 7,
  chain: '-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n',
  key: '-----BEGIN PRIVATE KEY-----\nTEST\n-----END PRIVATE KEY-----\n',
};

/** A node's state that touches every part of the renderer. */
export const fullState = () =>
  edge.desiredState.parse({
    revision: 42,
    structure: {
      zone: {
        httpPorts: [80, 8080],
        httpsPorts: [443],
        nginx: { workerProcesses: 2, cacheSize: 2048, cacheTime: 120, streamConnectTimeout: 5, streamTimeout: 300 },
        proxy: { connectTimeout: 4, sendTimeout: 30, readTimeout: 90, keepaliveTimeout: 20, buffering: false },
        forceSSLRedirectCode: 308,
      },
      sites: [
        {
          id: 1,
          name: 'Shop',
          gzip: true,
          domains: [
            {
              id: 11,
              name: 'shop.example.com',
              originProtocol: 'follow',
              forceSSL: true,
              hsts: true,
              certificateId: 7,
              origins: [
                { host: '10.0.0.5', port: 8080, weight: 5, maxFails: 3, failTimeout: 30 },
                { host: 'backup.example.net', backup: true },
              ],
              balance: 'ip_hash',
              hashKey: '$remote_addr',
              portMap: { enabled: true, rules: [{ listen: 8080, originPort: 8443 }] },
            },
            { id: 12, name: '*.static.example.com', origins: [{ host: '2001:db8::5', port: 80 }], balance: 'least_conn', keepalive: 0 },
          ],
          cacheRules: [
            { type: 'url', values: ['https://shop.example.com/assets/', 'https://shop.example.com/'], seconds: 600, mode: 'force' },
            { type: 'fileTypes', values: ['png', 'jpg', 'css'], seconds: 86400 },
            { type: 'fileTypes', values: ['html'], seconds: 0 },
          ],
          errorPages: [
            { status: 502, type: 'content', body: '<h1>Back soon</h1>' },
            { status: 504, type: 'redirect', body: 'https://status.example.com/' },
            { status: 500, type: 'js', body: 'location.reload()' },
            { status: 929, type: 'content', body: '<h1>Blocked</h1>' },
          ],
          options: {
            hsts: { enabled: true, maxAge: 600, includeSubDomains: true },
            clientMaxBodySize: 0,
            webp: true,
            rateRules: [{ url: 'https://shop.example.com/downloads/', rate: 200 }, { url: 'http://shop.example.com/downloads/big/', rate: 50 }],
            cache: { ignoreQuery: true },
            httpPorts: [8080],
          },
        },
        {
          id: 2,
          name: 'Game servers',
          domains: [],
          l4Ports: [{ port: 2222, origins: [{ host: '10.0.1.9', port: 22 }, { host: '10.0.1.10', port: 22, backup: true }] }],
        },
      ],
    },
    data: {
      sites: [{ siteId: 1, blacklist: ['192.0.2.0/24', '198.51.100.7'], whitelist: ['192.0.2.10'] }],
      certificates: [TEST_CERT, { ...TEST_CERT, id: 8 }],
      zone: {
        ipset: ['203.0.113.0/24', '2001:db8:dead::1'],
        anticc: [{ id: 1, urlRegex: '^/login', seconds: 10, times: 20, type: 3 }],
        invalidDomainLimit: 30,
        tlsLimit: 100,
      },
    },
  });
