import type { accountSchemas, infraSchemas, siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';

/** Shapes of the infrastructure calls, taken from the contract (types only: no zod in the bundle). */
export type Zone = z.infer<typeof infraSchemas.zoneItem>;
export type ZoneBody = z.input<typeof infraSchemas.createZoneBody>;
export type ZoneSettings = z.infer<typeof infraSchemas.zoneSettings>;
export type ZonePorts = z.infer<typeof infraSchemas.zonePorts>;
export type NginxWorker = z.infer<typeof infraSchemas.nginxWorker>;
export type NginxHttp = z.infer<typeof infraSchemas.nginxHttp>;
export type Node = z.infer<typeof infraSchemas.nodeItem>;
export type NodeStatus = Node['status'];
export type NodeBody = z.input<typeof infraSchemas.createNodeBody>;
export type NodeUpdate = z.input<typeof infraSchemas.updateNodeBody>;
export type Enrolment = z.infer<typeof infraSchemas.enrolment>;
export type NodeSystem = z.infer<typeof infraSchemas.nodeSystem>;
export type NodeCommand = z.infer<typeof infraSchemas.nodeCommandItem>;
export type CommandKind = NodeCommand['kind'];
export type Group = z.infer<typeof siteSchemas.groupItem>;
export type DnsLine = Group['line'];
export type GroupBody = z.input<typeof siteSchemas.createGroupBody>;
export type Product = z.infer<typeof siteSchemas.productItem>;
export type ProductBody = z.input<typeof siteSchemas.createProductBody>;
export type Site = z.infer<typeof siteSchemas.siteItem>;
export type SiteBody = z.input<typeof siteSchemas.createSiteBody>;
export type Account = z.infer<typeof accountSchemas.accountItem>;
export type Meta = { id: number; name: string };
