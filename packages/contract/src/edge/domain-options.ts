import { z } from 'zod';

const port = z.number().int().min(1).max(65535);

/** How nginx spreads requests over a domain's origins. */
export const balance = z.enum(['round_robin', 'ip_hash', 'least_conn']).default('round_robin');
/** For ip_hash: the key hashed (nginx variables); empty hashes the client address. */
export const hashKey = z.string().max(256).regex(/^(\$[a-z][a-z0-9_]{0,63}|[A-Za-z0-9_.:-])*$/).default('');
/** Idle connections kept to the origins; 0: none. */
export const keepalive = z.number().int().min(0).max(1000).default(16);
/**
 * Port mapping: when on, the origin is reached on the port the client used at the edge, or on the rule's
 * originPort for a mapped edge port.
 */
export const portMap = z
  .object({ enabled: z.boolean(), rules: z.array(z.object({ listen: port, originPort: port })).max(20).default([]) })
  .default({ enabled: false, rules: [] });
export type PortMap = z.infer<typeof portMap>;
