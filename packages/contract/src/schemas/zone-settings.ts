import { z } from 'zod';
import { displayName } from './name';
import { ITEM_LIST_MAX } from '../constants';
import { anticcRule } from '../edge/acl';
import { ipEntry, ipKey } from '../edge/ip-entry';

const port = z.number().int().min(1).max(65535);
const ports = z
  .array(port)
  .min(1, 'HTTP and HTTPS need at least one port each')
  .max(20)
  .refine((list) => new Set(list).size === list.length, 'Data already exists!');
const seconds = (min: number, max: number) => z.number().int().min(min).max(max);
const onOff = z.object({ enabled: z.boolean() });

/** The zone's open ports: every node of the zone listens on them. */
export const zonePorts = z
  .object({ httpPorts: ports, httpsPorts: ports })
  .refine((v) => !v.httpsPorts.some((p) => v.httpPorts.includes(p)), { message: 'Data already exists!', path: ['httpsPorts'] });
/** One port opened or closed in the zone's HTTP or HTTPS list. */
export const zonePort = z.object({ type: z.enum(['http', 'https']), port });
export const nginxWorker = z.object({
  workerProcesses: z.union([z.literal('auto'), z.number().int().min(1).max(256)]),
  workerConnections: z.number().int().min(64).max(1_000_000),
});
export const nginxHttp = z.object({
  /** MB; 0 turns the check off (spec §5). */
  clientMaxBodySize: z.number().int().min(0).max(102_400),
  /** Seconds. */
  keepaliveTimeout: seconds(0, 3600),
});
/** The layer-4 (stream) servers: seconds to connect to an origin, and seconds a connection may stay idle. */
export const nginxStream = z.object({ proxyConnectTimeout: seconds(1, 600), proxyTimeout: seconds(1, 86_400) });
/** Custom proxy-pass to the origins of every domain: timeouts in seconds, idle keep-alive to origins, buffering. */
export const nginxCustom = z.object({
  connectTimeout: seconds(1, 600),
  sendTimeout: seconds(1, 3600),
  readTimeout: seconds(1, 3600),
  /** Seconds an idle connection to an origin is kept open. */
  keepaliveTimeout: seconds(1, 3600),
  proxyBuffering: z.boolean(),
});
/** The zone's firewall switch: off skips every firewall step on the zone's nodes; sites are still served. */
export const zoneFirewall = onOff;
export const IPSET_MAX_SETS = 20;
/** A named IP set: addresses, CIDR blocks or ranges (IPv4 and IPv6); repeats are dropped. */
export const ipSet = z.object({
  name: displayName(64),
  ips: z
    .array(ipEntry)
    .max(ITEM_LIST_MAX)
    .transform((list) => [...new Map(list.map((ip) => [ipKey(ip) ?? ip.toLowerCase(), ip])).values()]),
});
export const zoneIpsets = z
  .object({ sets: z.array(ipSet).max(IPSET_MAX_SETS) })
  .refine((v) => new Set(v.sets.map((s) => s.name)).size === v.sets.length, { message: 'Data already exists!', path: ['sets'] })
  .refine((v) => v.sets.reduce((n, s) => n + s.ips.length, 0) <= ITEM_LIST_MAX, { message: `at most ${ITEM_LIST_MAX} entries in all`, path: ['sets'] });
export const http2 = onOff;
export const http3 = onOff;
export const FORCE_SSL_REDIRECT_CODES = [301, 302, 307, 308] as const;
export const forceSSLRedirectCode = z.object({ code: z.union(FORCE_SSL_REDIRECT_CODES.map((c) => z.literal(c))) });
/** The zone's default anti-CC: it protects the zone's sites that have no enabled anti-CC rule of their own. */
export const zoneAnticc = z.object({
  enabled: z.boolean(),
  rules: z.array(anticcRule.omit({ id: true })).max(100),
});
/** Cache of the zone's nodes: disk size in MB, and minutes an unrequested file stays. */
export const zoneResource = z.object({ cacheSize: z.number().int().min(16).max(10_000_000), cacheTime: z.number().int().min(1).max(525_600) });
/** Per client address and minute; 0 turns the limit off. */
export const limitCount = z.object({ count: z.number().int().min(0).max(1_000_000) });
export const preheatCachesBody = z.object({ urls: z.array(z.string().trim().regex(/^https?:\/\/\S+$/, 'Wrong Fromat!').max(2048)).min(1).max(1000) });
/** The last cache warm-up of the zone: its URLs and the node actions that fetch them. */
export const zonePreheat = z.object({ urls: z.array(z.string()), commandIDs: z.array(z.number()), createdAt: z.string().nullable() });
export const preheatResult = z.object({
  urls: z.array(z.string()),
  createdAt: z.string().nullable(),
  nodes: z.array(
    z.object({
      nodeID: z.number(),
      nodeName: z.string(),
      status: z.enum(['queued', 'sent', 'done', 'failed']),
      message: z.string().nullable(),
      finishedAt: z.string().nullable(),
    }),
  ),
});

export const zoneSettings = z.object({
  ports: zonePorts,
  nginxWorker,
  nginxHttp,
  nginxStream,
  nginxCustom,
  firewall: zoneFirewall,
  ipset: zoneIpsets,
  http2,
  http3,
  forceSSLRedirectCode,
  anticc: zoneAnticc,
  resource: zoneResource,
  invalidDomainLimitCount: limitCount,
  tlsLimitCount: limitCount,
  preheatCaches: zonePreheat,
});
export type ZoneSettings = z.infer<typeof zoneSettings>;
