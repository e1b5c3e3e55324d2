import type { edge } from '@edgekeep/contract';
import { block, lines } from './text';

const hostPort = ({ host, port }: edge.Origin) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** An upstream block; the same shape serves http (with keepalive) and stream. */
export const upstream = ({ name, origins, keepalive }: { name: string; origins: edge.Origin[]; keepalive?: number }) =>
  block({
    head: `upstream ${name}`,
    body: lines(
      ...origins.map(
        (o) =>
          `server ${hostPort(o)} weight=${o.weight} max_fails=${o.maxFails} fail_timeout=${o.failTimeout}s${o.backup ? ' backup' : ''};`,
      ),
      keepalive !== undefined && `keepalive ${keepalive};`,
    ),
  });
