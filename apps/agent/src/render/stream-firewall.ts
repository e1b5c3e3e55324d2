import type { edge } from '@edgekeep/contract';
import { lines } from './text';

const onPort = (port: number) => (r: { port: number }) => r.port === 0 || r.port === port;
const zoneName = (port: number) => `ek_l4c_${port}`;

/** The stream-level zones of the site's connection limits: one per limited port. */
export const l4LimitZones = ({ site }: { site: edge.SiteStructure }) =>
  lines(
    ...site.l4Firewall.limitConns
      .filter((l) => site.l4Ports.some((p) => p.port === l.port))
      .map((l) => `limit_conn_zone $binary_remote_addr zone=${zoneName(l.port)}:1m;`),
  );

/**
 * One L4 port's firewall: whitelisted addresses pass, blacklisted ones are refused (nginx checks allow/deny in
 * order, first match wins), and the connection limit per client address.
 */
export const l4Access = ({ site, port }: { site: edge.SiteStructure; port: number }) => {
  const { blacklist, whitelist, limitConns } = site.l4Firewall;
  const deny = blacklist.filter(onPort(port));
  const limit = limitConns.find((l) => l.port === port);
  return lines(
    ...(deny.length ? [...whitelist.filter(onPort(port)).map((r) => `allow ${r.ip};`), ...deny.map((r) => `deny ${r.ip};`)] : []),
    limit && `limit_conn ${zoneName(port)} ${limit.max + limit.burst};`,
  );
};
