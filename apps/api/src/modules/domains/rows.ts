import { domainSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import { readJson } from '../../db/json-column';

export type UpstreamInput = z.infer<typeof domainSchemas.upstreamInput>;
export type PortMap = z.infer<typeof domainSchemas.portMap>;

export const toUpstream = (u: Selectable<UpstreamTable>) => ({
  id: u.id,
  host: u.host,
  port: u.port,
  weight: u.weight,
  backup: u.backup === 1,
  maxFails: u.max_fails,
  failTimeout: u.fail_timeout,
  enabled: u.enabled === 1,
  hash: u.hash,
  keepalive: u.keepalive,
});
export const upstreamRow = (domainId: number, u: UpstreamInput) =>
  ({
    domain_id: domainId,
    host: u.host,
    port: u.port,
    weight: u.weight,
    backup: u.backup ? 1 : 0,
    max_fails: u.maxFails,
    fail_timeout: u.failTimeout,
    enabled: u.enabled ? 1 : 0,
    hash: u.hash,
    keepalive: u.keepalive,
  }) as const;

export const portMapOf = (d: Pick<Selectable<DomainTable>, 'port_map'>): PortMap => readJson('domains.port_map', domainSchemas.portMap, d.port_map);
