import { describe, expect, it } from 'vitest';
import { parseStreamLine } from './parse-stream-line';

const line = (o: Record<string, string>) =>
  JSON.stringify({
    time: '2026-11-24T02:00:00+00:00', msec: '1795485600.250', site: '7', port: '9000', protocol: 'TCP', clientIp: '203.0.113.9', status: '200',
    bytesSent: '1200', bytesReceived: '300', sessionTime: '0.412', upstream: '127.0.0.1:7001', country: 'DE', asn: '64500', colo: 'NL', ...o,
  });

describe('parseStreamLine', () => {
  it('reads a proxied connection as passed, with its bytes, time and places', () => {
    expect(parseStreamLine({ line: line({}) })).toEqual({
      time: '2026-11-24T02:00:00.250Z', siteId: 7, port: 9000, protocol: 'TCP', clientIp: '203.0.113.9', outcome: 'pass', status: 200,
      bytesSent: 1200, bytesReceived: 300, sessionTime: 0.412, country: 'DE', asn: '64500', coloCountry: 'NL',
    });
  });

  it('counts the L4 firewall refusals as drops: deny 403, limit 503, a country position (502 from the refusing upstream)', () => {
    expect(parseStreamLine({ line: line({ status: '403', upstream: '' }) })?.outcome).toBe('drop');
    expect(parseStreamLine({ line: line({ status: '503', upstream: '' }) })?.outcome).toBe('drop');
    expect(parseStreamLine({ line: line({ status: '502', upstream: 'ek_l4_refuse' }) })?.outcome).toBe('drop');
    expect(parseStreamLine({ line: line({ status: '502', upstream: '127.0.0.1:7001' }) })?.outcome).toBe('pass');
  });

  it('skips lines of no L4 site, of an unknown protocol, or not JSON', () => {
    expect(parseStreamLine({ line: line({ site: '' }) })).toBeUndefined();
    expect(parseStreamLine({ line: line({ protocol: 'SCTP' }) })).toBeUndefined();
    expect(parseStreamLine({ line: '{"site":' })).toBeUndefined();
  });

  it('reads "-" and empty geo fields as empty', () => {
    expect(parseStreamLine({ line: line({ country: '', asn: '-', colo: '' }) })).toMatchObject({ country: '', asn: '', coloCountry: '' });
  });
});
