import { infraSchemas } from '@edgekeep/contract';
import { readJson } from '../../db/json-column';

export type ZoneSettings = infraSchemas.ZoneSettings;
export const DEFAULT_ZONE_SETTINGS: ZoneSettings = {
  ports: { httpPorts: [80], httpsPorts: [443] },
  nginxWorker: { workerProcesses: 'auto', workerConnections: 4096 },
  nginxHttp: { clientMaxBodySize: 100, keepaliveTimeout: 65 },
  nginxStream: { proxyConnectTimeout: 10, proxyTimeout: 600 },
  nginxCustom: { connectTimeout: 60, sendTimeout: 60, readTimeout: 60, keepaliveTimeout: 60, proxyBuffering: true },
  firewall: { enabled: true },
  ipset: { sets: [] },
  http2: { enabled: true },
  http3: { enabled: false },
  forceSSLRedirectCode: { code: 301 },
  anticc: { enabled: false, rules: [] },
  resource: { cacheSize: 10_240, cacheTime: 10_080 },
  invalidDomainLimitCount: { count: 0 },
  tlsLimitCount: { count: 0 },
  preheatCaches: { urls: [], commandIDs: [], createdAt: null },
};

const storedSettings = infraSchemas.zoneSettings.partial();

/** A zone's stored settings; a setting the zone never had answers its default. */
export const readZoneSettings = (json: string): ZoneSettings => ({ ...DEFAULT_ZONE_SETTINGS, ...readJson('zones.settings', storedSettings, json) });
