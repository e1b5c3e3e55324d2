import { agentProtocol } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { parseAccessLine } from './parse-line';

const nginxLine = (fields: Record<string, string> = {}) =>
  JSON.stringify({
    time: '2026-11-21T21:05:07+01:00',
    msec: '1795291507.123',
    requestId: 'f3a1',
    scheme: 'https',
    site: '4',
    domain: 'shop.example.com',
    clientIp: '203.0.113.9',
    country: '',
    asn: '64500',
    isp: 'Example Networks',
    region: 'Bavaria',
    city: 'Munich',
    method: 'GET',
    uri: '/cart?id=1',
    status: '200',
    bytesSent: '512',
    bytesReceived: '87',
    requestTime: '0.012',
    upstreamTime: '0.010',
    cacheStatus: 'MISS',
    httpVersion: 'HTTP/1.1',
    referer: 'https://example.com/',
    userAgent: 'curl/8.0',
    blockCause: '',
    blockRule: '',
    blockAction: '',
    ...fields,
  });

describe('parseAccessLine', () => {
  it("turns nginx's strings into the protocol's typed record, the time in UTC", () => {
    const line = parseAccessLine({ line: nginxLine() });
    expect(line).toEqual({
      time: '2026-11-21T20:05:07.123Z',
      siteId: 4,
      domain: 'shop.example.com',
      clientIp: '203.0.113.9',
      country: '',
      asn: '64500',
      method: 'GET',
      uri: '/cart?id=1',
      status: 200,
      bytesSent: 512,
      bytesReceived: 87,
      requestTime: 0.012,
      upstreamTime: 0.01,
      cacheStatus: 'MISS',
      httpVersion: 'HTTP/1.1',
      referer: 'https://example.com/',
      userAgent: 'curl/8.0',
      blockCause: '',
      requestId: 'f3a1',
      scheme: 'https',
      region: 'Bavaria',
      city: 'Munich',
      isp: 'Example Networks',
      blockRule: '',
      blockAction: '',
    });
    expect(agentProtocol.accessLogLine.parse(line)).toEqual(line);
  });

  it('has no site and no upstream time for a request no site took, and sums retried upstreams', () => {
    expect(parseAccessLine({ line: nginxLine({ site: '', upstreamTime: '', cacheStatus: '' }) })).toMatchObject({
      siteId: null,
      upstreamTime: null,
      cacheStatus: '',
    });
    expect(parseAccessLine({ line: nginxLine({ upstreamTime: '-' }) })?.upstreamTime).toBeNull();
    expect(parseAccessLine({ line: nginxLine({ upstreamTime: '0.5, 0.25 : 0.125' }) })?.upstreamTime).toBe(0.875);
  });

  it("carries what refused a blocked request: the cause, the rule and the action", () => {
    expect(parseAccessLine({ line: nginxLine({ status: '929', blockCause: 'acl', blockRule: '3:17', blockAction: 'deny' }) })).toMatchObject({
      status: 929,
      blockCause: 'acl',
      blockRule: '3:17',
      blockAction: 'deny',
    });
  });

  it('reads a line written before the edge logged the request id, scheme, place, ISP and block rule as empty ones', () => {
    const old = JSON.parse(nginxLine()) as Record<string, string>;
    for (const k of ['requestId', 'scheme', 'isp', 'region', 'city', 'blockRule', 'blockAction']) delete old[k];
    expect(parseAccessLine({ line: JSON.stringify(old) })).toMatchObject({ requestId: '', scheme: '', isp: '', region: '', city: '', blockRule: '', blockAction: '' });
  });

  it('keeps escaped characters and drops nothing of a long user agent', () => {
    const userAgent = 'Mozilla/5.0 "quoted" \\ back\tslash ' + 'x'.repeat(2000);
    expect(parseAccessLine({ line: nginxLine({ userAgent }) })?.userAgent).toBe(userAgent);
  });

  it('falls back to the logged time when msec is missing', () => {
    expect(parseAccessLine({ line: nginxLine({ msec: '' }) })?.time).toBe('2026-11-21T21:05:07+01:00');
  });

  it('skips what is not a log record', () => {
    expect(parseAccessLine({ line: '' })).toBeUndefined();
    expect(parseAccessLine({ line: '{"time":' })).toBeUndefined();
    expect(parseAccessLine({ line: 'null' })).toBeUndefined();
  });

  it('reads the record that follows a record nginx could write only in part (a full disk), and drops the part', () => {
    const part = nginxLine({ uri: '/lost' }).slice(0, 150);
    expect(parseAccessLine({ line: part + nginxLine({ uri: '/kept' }) })).toMatchObject({ uri: '/kept', status: 200 });
    expect(parseAccessLine({ line: part + part.slice(0, 20) + nginxLine({ uri: '/kept', userAgent: '{"time":x' }) })).toMatchObject({ uri: '/kept' });
    expect(parseAccessLine({ line: part })).toBeUndefined();
  });
});
