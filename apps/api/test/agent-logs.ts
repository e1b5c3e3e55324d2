import { gzipSync } from 'node:zlib';
import type { agentProtocol } from '@edgekeep/contract';
import { call, type TestApp } from './harness';

/** Enrols a node the way its agent does; answers its credential. */
export async function enrolNode(t: TestApp, clientToken: string, nodeId: number) {
  const init = await call(t, 'POST', 'client/nodes/initialize', { token: clientToken, body: { id: nodeId } });
  const res = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: `node-${nodeId}`, version: '0.1.0' } });
  if (res.statusCode !== 200) throw new Error(`enrol failed: ${res.body}`);
  return res.json().credential as string;
}

/** One access-log record as the agent ships it. */
export const logLine = (o: Partial<agentProtocol.AccessLogLine> & { siteId: number | null }): agentProtocol.AccessLogLine => ({
  time: new Date().toISOString(),
  domain: 'www.example.com',
  clientIp: '198.51.100.7',
  country: 'TW',
  asn: '',
  method: 'GET',
  uri: '/',
  status: 200,
  bytesSent: 1000,
  bytesReceived: 200,
  requestTime: 0.01,
  upstreamTime: 0.005,
  cacheStatus: 'MISS',
  httpVersion: 'HTTP/1.1',
  referer: '',
  userAgent: 'curl/8',
  blockCause: '',
  requestId: '',
  scheme: 'https',
  region: '',
  city: '',
  isp: '',
  blockRule: '',
  blockAction: '',
  ...o,
});

/** POST /agent/v1/logs with a gzip NDJSON body, as the agent's shipper sends it (`headers`: x-log-file). */
export async function postLogs(t: TestApp, credential: string | undefined, lines: unknown[], opts: { raw?: Buffer; headers?: Record<string, string> } = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/agent/v1/logs',
    headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', ...(credential ? { authorization: `Node ${credential}` } : {}), ...opts.headers },
    payload: opts.raw ?? gzipSync(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n'),
  });
  return { status: res.statusCode, body: res.json() };
}
