import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { readZoneSettings, type ZoneSettings } from './defaults';

/** The zone's settings that nginx must know at load time; a node's own cache capacity (MB, 0: none) wins over the zone's size. */
const zoneStructure = (s: ZoneSettings, cacheCapacity: number) => ({
  httpPorts: s.ports.httpPorts,
  httpsPorts: s.ports.httpsPorts,
  nginx: {
    ...s.nginxWorker,
    ...s.nginxHttp,
    cacheTime: s.resource.cacheTime,
    cacheSize: cacheCapacity || s.resource.cacheSize,
    streamConnectTimeout: s.nginxStream.proxyConnectTimeout,
    streamTimeout: s.nginxStream.proxyTimeout,
  },
  proxy: {
    connectTimeout: s.nginxCustom.connectTimeout,
    sendTimeout: s.nginxCustom.sendTimeout,
    readTimeout: s.nginxCustom.readTimeout,
    keepaliveTimeout: s.nginxCustom.keepaliveTimeout,
    buffering: s.nginxCustom.proxyBuffering,
  },
  http2: s.http2.enabled,
  forceSSLRedirectCode: s.forceSSLRedirectCode.code,
});

/** The zone's settings the Lua runtime enforces: firewall switch, IP sets, default anti-CC and the per-address limits. */
const zoneData = (s: ZoneSettings) => ({
  firewall: s.firewall.enabled,
  ipset: [...new Set(s.ipset.sets.flatMap((set) => set.ips))],
  anticc: s.anticc.enabled ? s.anticc.rules.map((r, i) => ({ ...r, id: i + 1 })) : [],
  invalidDomainLimit: s.invalidDomainLimitCount.count,
  tlsLimit: s.tlsLimitCount.count,
});

/** The zone's settings: ports, nginx and proxy settings in its structure, the Lua runtime's in its data. */
export const zonesEdge: EdgeFeature = {
  name: 'zone settings',
  zone: async ({ zone }) => {
    const settings = readZoneSettings(zone.settings);
    return { structure: zoneStructure(settings, zone.cache_capacity), data: zoneData(settings) };
  },
};
