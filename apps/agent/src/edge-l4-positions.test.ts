import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyState } from './apply/apply';
import { parseStreamLine } from './logs/parse-stream-line';
import { STREAM_LOG } from './render';
import type { GeoOptions } from './render';
import { writeCountryDb } from './test/mmdb';
import { detectNginx, startEdge } from './test/nginx-harness';
import { requiredInCi } from './test/required-in-ci';
import { freePort, startTcpEcho, tcpAnswer } from './test/servers';

// The country of an L4 connection needs Debian's libnginx-mod-stream-geoip2 (scripts/debian-packages.txt).
const nginx = await detectNginx();
const streamGeo = await access('/usr/lib/nginx/modules/ngx_stream_geoip2_module.so').then(() => true, () => false);
const ready = requiredInCi(nginx.ok && streamGeo, 'edge L4 position tests need nginx with the stream geoip2 module');

// Loopback addresses the test connects from, given countries by a database made for the test.
const US = '127.0.0.2';
const JP = '127.0.0.3';
const NOWHERE = '127.0.0.4';

describe.skipIf(!ready)('layer-4 positions at the edge', () => {
  let dir: string;
  let geo: GeoOptions;
  let echo: Awaited<ReturnType<typeof startTcpEcho>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let l4Port: number;
  let otherPort: number;
  let revision = 1;

  const state = (positions: object[]) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [l4Port + 1], httpsPorts: [l4Port + 2], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 7,
            name: 'game',
            domains: [],
            l4Ports: [l4Port, otherPort].map((port) => ({ port, origins: [{ host: '127.0.0.1', port: echo.port }] })),
            l4Firewall: { positions },
          },
        ],
      },
    });
  const apply = async (positions: object[]) => {
    const r = await applyState({ state: state(positions), prefix: node.prefix, controlPort: node.control.port, geo });
    expect(r).toMatchObject({ ok: true });
  };
  const answers = async (port: number) => ({
    us: await tcpAnswer({ port, from: US }),
    jp: await tcpAnswer({ port, from: JP }),
    nowhere: await tcpAnswer({ port, from: NOWHERE }),
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-geo-'));
    geo = { countryDb: join(dir, 'country.mmdb'), stream: true };
    await writeCountryDb({ path: geo.countryDb, countries: { [US]: 'US', [JP]: 'JP' } });
    echo = await startTcpEcho();
    l4Port = await freePort();
    otherPort = await freePort();
    node = await startEdge({ state: state([]), controlPort: await freePort(), geo });
  });
  afterAll(async () => {
    await node?.stop();
    await echo?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves every country without positions', async () => {
    expect(await answers(l4Port)).toEqual({ us: 'echo:hi', jp: 'echo:hi', nowhere: 'echo:hi' });
  });

  it('refuses the listed countries of a deny position on its port only', async () => {
    await apply([{ countries: ['US'], isBlack: true, port: l4Port }]);
    expect(await answers(l4Port)).toEqual({ us: '', jp: 'echo:hi', nowhere: 'echo:hi' });
    expect(await answers(otherPort)).toEqual({ us: 'echo:hi', jp: 'echo:hi', nowhere: 'echo:hi' });
  });

  it('logs a refused country as a drop, and a connection let through as a pass, in the stream log', async () => {
    await apply([{ countries: ['US'], isBlack: true, port: l4Port }]);
    expect(await tcpAnswer({ port: l4Port, from: US })).toBe('');
    expect(await tcpAnswer({ port: l4Port, from: JP })).toBe('echo:hi');
    await new Promise((r) => setTimeout(r, 300));
    const lines = (await readFile(join(node.prefix, STREAM_LOG), 'utf8')).trim().split('\n').map((line) => parseStreamLine({ line }));
    const [refused, passed] = lines.slice(-2);
    expect(refused).toMatchObject({ siteId: 7, port: l4Port, protocol: 'TCP', clientIp: US, outcome: 'drop', status: 502, country: 'US' });
    expect(passed).toMatchObject({ siteId: 7, port: l4Port, clientIp: JP, outcome: 'pass', status: 200, country: 'JP', bytesSent: 'echo:hi'.length, bytesReceived: 'hi'.length });
  });

  it('lets only the listed countries in with an allow-only position on every port, and a deny position narrows it', async () => {
    await apply([{ countries: ['US', 'JP'], isBlack: false }]);
    expect(await answers(otherPort)).toEqual({ us: 'echo:hi', jp: 'echo:hi', nowhere: '' });
    await apply([{ countries: ['US', 'JP'], isBlack: false }, { countries: ['JP'], isBlack: true, port: otherPort }]);
    expect(await answers(otherPort)).toEqual({ us: 'echo:hi', jp: '', nowhere: '' });
    expect(await answers(l4Port)).toEqual({ us: 'echo:hi', jp: 'echo:hi', nowhere: '' });
    await apply([]);
    expect(await answers(otherPort)).toEqual({ us: 'echo:hi', jp: 'echo:hi', nowhere: 'echo:hi' });
  });
});
