import type { edge } from '@edgekeep/contract';
import { block, lines } from './text';

const hostPort = ({ host, port }: edge.Origin) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

type Balance = edge.Domain['balance'];

/** The load-balancing line of an upstream: round robin is nginx's default and needs none. */
const balancing = ({ balance, hashKey }: { balance?: Balance; hashKey?: string }) => {
  if (balance === 'least_conn') return 'least_conn;';
  if (balance === 'ip_hash') return hashKey ? `hash ${hashKey} consistent;` : 'ip_hash;';
  return false;
};

/** An upstream block; the same shape serves http (with balancing and keepalive) and stream. */
export const upstream = (o: { name: string; origins: edge.Origin[]; keepalive?: number; keepaliveTimeout?: number; balance?: Balance; hashKey?: string }) =>
  block({
    head: `upstream ${o.name}`,
    body: lines(
      balancing(o),
      // nginx's hash balancing takes no backup servers: a hashed domain leaves its backups out
      ...o.origins
        .filter((origin) => !(origin.backup && o.balance === 'ip_hash'))
        .map(
          (origin) =>
            `server ${hostPort(origin)} weight=${origin.weight} max_fails=${origin.maxFails} fail_timeout=${origin.failTimeout}s${origin.backup ? ' backup' : ''};`,
        ),
      o.keepalive ? `keepalive ${o.keepalive};` : false,
      o.keepalive && o.keepaliveTimeout ? `keepalive_timeout ${o.keepaliveTimeout}s;` : false,
    ),
  });

/** A domain's upstreams: one, or with port mapping on one per edge port, each reaching the origins on the mapped port. */
export const domainUpstreams = ({ domain, zone }: { domain: edge.Domain; zone: edge.ZoneStructure }) => {
  const base = { keepalive: domain.keepalive, keepaliveTimeout: zone.proxy.keepaliveTimeout, balance: domain.balance, hashKey: domain.hashKey };
  if (!domain.portMap.enabled) return upstream({ name: `ek_d${domain.id}`, origins: domain.origins, ...base });
  return lines(
    ...[...zone.httpPorts, ...zone.httpsPorts].map((listen) => {
      const port = domain.portMap.rules.find((r) => r.listen === listen)?.originPort ?? listen;
      return upstream({ name: `ek_d${domain.id}_p${listen}`, origins: domain.origins.map((x) => ({ ...x, port })), ...base });
    }),
  );
};
