import type { l4PortSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { L4UpstreamTable } from '../../db/schema';

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
