import type { infraSchemas, siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';

/** Shapes of the infrastructure calls, taken from the contract (types only: no zod in the bundle). */
export type Zone = z.infer<typeof infraSchemas.zoneItem>;
export type ZoneBody = z.input<typeof infraSchemas.createZoneBody>;
export type ZoneSettings = z.infer<typeof infraSchemas.zoneSettings>;
/** The body of each `PUT client/zone/{zoneID}/<name>` zone setting. */
export type ZoneSettingBodies = {
  ports: z.input<typeof infraSchemas.zonePorts>;
  'nginx/worker': z.input<typeof infraSchemas.nginxWorker>;
  'nginx/http': z.input<typeof infraSchemas.nginxHttp>;
  'nginx/stream': z.input<typeof infraSchemas.nginxStream>;
  'nginx/custom': z.input<typeof infraSchemas.nginxCustom>;
  firewall: z.input<typeof infraSchemas.zoneFirewall>;
  ipset: z.input<typeof infraSchemas.zoneIpsets>;
  http2: z.input<typeof infraSchemas.http2>;
  http3: z.input<typeof infraSchemas.http3>;
  forceSSLRedirectCode: z.input<typeof infraSchemas.forceSSLRedirectCode>;
  anticc: z.input<typeof infraSchemas.zoneAnticc>;
  resource: z.input<typeof infraSchemas.zoneResource>;
  invalidDomainLimitCount: z.input<typeof infraSchemas.limitCount>;
  tlsLimitCount: z.input<typeof infraSchemas.limitCount>;
  preheatCaches: z.input<typeof infraSchemas.preheatCachesBody>;
};
export type PreheatResult = z.infer<typeof infraSchemas.preheatResult>;
export type Node = z.infer<typeof infraSchemas.nodeItem>;
export type NodeStatus = Node['status'];
export type NodeBody = z.input<typeof infraSchemas.createNodeBody>;
export type NodeUpdate = z.input<typeof infraSchemas.updateNodeBody>;
export type Enrolment = z.infer<typeof infraSchemas.enrolment>;
export type NodeSystem = z.infer<typeof infraSchemas.nodeSystem>;
export type NodeCommand = z.infer<typeof infraSchemas.nodeCommandItem>;
export type CommandKind = NodeCommand['kind'];
export type NodeMonitor = Node['monitor'];
export type NodeGeneva = Node['geneva'];
export type SubNode = z.infer<typeof infraSchemas.subNodeItem>;
export type Resolution = z.infer<typeof infraSchemas.resolutionItem>;
export type Group = z.infer<typeof siteSchemas.groupItem>;
export type DnsLine = Group['line'];
export type GroupBody = z.input<typeof siteSchemas.createGroupBody>;
