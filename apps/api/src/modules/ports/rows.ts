import type { l4PortSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db';
import type { L4PortTable, L4UpstreamTable } from '../../db/schema';

export type L4UpstreamInput = z.infer<typeof l4PortSchemas.l4UpstreamInput>;

export const toL4Upstream = (u: Selectable<L4UpstreamTable>) => ({
  id: u.id,
  host: u.host,
  port: u.port,
  weight: u.weight,
  backup: u.backup === 1,
  maxFails: u.max_fails,
  failTimeout: u.fail_timeout,
  enabled: u.enabled === 1,
  createdAt: u.created_at,
});

export const l4UpstreamRow = (portId: number, u: L4UpstreamInput, at: string) =>
  ({
    port_id: portId,
    host: u.host,
    port: u.port,
    weight: u.weight,
    backup: u.backup ? 1 : 0,
    max_fails: u.maxFails,
    fail_timeout: u.failTimeout,
    enabled: u.enabled ? 1 : 0,
    created_at: at,
  }) as const;

export async function toPortItems(db: Db, rows: Selectable<L4PortTable>[]) {
  const ups = rows.length ? await db.selectFrom('l4_upstreams').selectAll().where('port_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [];
  return rows.map((p) => ({
    id: p.id,
    siteID: p.site_id,
    port: p.port,
    protocol: 'tcp' as const,
    portType: 4 as const,
    upstreams: ups.filter((u) => u.port_id === p.id).map(toL4Upstream),
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  }));
}

/** The layer-4 ports of the given sites with their enabled origins, as the node's desired state takes them. */
export async function l4PortsOfSites(db: Db, siteIds: number[]) {
  const bySite = new Map<number, { port: number; origins: { host: string; port: number; weight: number; backup: boolean; maxFails: number; failTimeout: number }[] }[]>();
  if (!siteIds.length) return bySite;
  const ports = await db.selectFrom('l4_ports').selectAll().where('site_id', 'in', siteIds).orderBy('port').execute();
  const ups = ports.length
    ? await db.selectFrom('l4_upstreams').selectAll().where('port_id', 'in', ports.map((p) => p.id)).where('enabled', '=', 1).orderBy('id').execute()
    : [];
  for (const p of ports) {
    const origins = ups
      .filter((u) => u.port_id === p.id)
      .map((u) => ({ host: u.host, port: u.port, weight: u.weight, backup: u.backup === 1, maxFails: u.max_fails, failTimeout: u.fail_timeout }));
    if (!origins.some((o) => !o.backup)) continue;
    bySite.set(p.site_id, [...(bySite.get(p.site_id) ?? []), { port: p.port, origins }]);
  }
  return bySite;
}
