import type { edge } from '@edgekeep/contract';
import { streamGeoDirectives, type GeoOptions } from './geo';
import { block, lines } from './text';

const onPort = (port: number) => (r: { port: number }) => r.port === 0 || r.port === port;
const zoneName = (port: number) => `ek_l4c_${port}`;
/** The upstream of refused connections: its one server is marked down, so nginx closes them at once. */
const REFUSE = 'ek_l4_refuse';

const usesPositions = (state: edge.DesiredState) => state.structure.sites.some((s) => s.l4Firewall.positions.length > 0);

/** The stream log: one JSON object per connection an L4 port closed, shipped as the stream log kind. */
export const STREAM_LOG = 'logs/stream.json';
/** The refusing upstream's name, which $upstream_addr shows for a connection a country position refused. */
export const REFUSED_UPSTREAM = REFUSE;
const STREAM_LOG_FIELDS: [string, string][] = [
  ['time', '$time_iso8601'],
  ['msec', '$msec'],
  ['site', '$ek_l4_site'],
  ['port', '$server_port'],
  ['protocol', '$protocol'],
  ['clientIp', '$remote_addr'],
  ['status', '$status'],
  ['bytesSent', '$bytes_sent'],
  ['bytesReceived', '$bytes_received'],
  ['sessionTime', '$session_time'],
  ['upstream', '$upstream_addr'],
  ['country', '$ek_l4_country'],
  ['asn', '$ek_l4_asn'],
  ['colo', '$ek_l4_colo'],
];

/** What the stream core needs: the geo variables, the stream log, and the refusing upstream when any site has L4 positions. */
export const streamCore = ({ state, geo }: { state: edge.DesiredState; geo?: GeoOptions }) =>
  lines(
    streamGeoDirectives({ geo }),
    // a zone's L4 ports are unique, so the port names the site
    block({
      head: 'map $server_port $ek_l4_site',
      body: lines('default "";', ...state.structure.sites.flatMap((s) => s.l4Ports.map((p) => `${p.port} ${s.id};`))),
    }),
    `log_format ek_stream escape=json '{${STREAM_LOG_FIELDS.map(([k, v]) => `"${k}":"${v}"`).join(',')}}';`,
    `access_log ${STREAM_LOG} ek_stream;`,
    usesPositions(state) && block({ head: `upstream ${REFUSE}`, body: 'server 127.0.0.1:1 down;' }),
  );

const siteZone = (site: edge.SiteStructure) => `ek_l4s_${site.id}`;

/** The stream-level zones of the site's connection limits: one per limited port, one for the site's limitation. */
export const l4LimitZones = ({ site }: { site: edge.SiteStructure }) =>
  lines(
    ...site.l4Firewall.limitConns
      .filter((l) => site.l4Ports.some((p) => p.port === l.port))
      .map((l) => `limit_conn_zone $binary_remote_addr zone=${zoneName(l.port)}:1m;`),
    // one key for every connection of the site: the zone counts them all
    site.l4Firewall.connections !== undefined && `limit_conn_zone site${site.id} zone=${siteZone(site)}:1m;`,
  );

/**
 * Where a port's connections go by the client's country: its origins, or the refusing upstream when a position
 * of the port refuses the country (a deny position naming it, an allow-only position not naming it; an unknown
 * country is one no position names). Without positions: the origins, no lookup.
 */
export const l4Target = ({ site, port, upstream }: { site: edge.SiteStructure; port: number; upstream: string }) => {
  const positions = site.l4Firewall.positions.filter(onPort(port));
  if (!positions.length) return { map: '', proxyPass: upstream };
  const refuses = (country: string) => positions.some((p) => p.isBlack === p.countries.includes(country));
  const refusesOthers = positions.some((p) => !p.isBlack);
  const named = [...new Set(positions.flatMap((p) => p.countries))].sort();
  const variable = `$ek_l4_to_${port}`;
  const map = block({
    head: `map $ek_l4_country ${variable}`,
    body: lines(
      `default ${refusesOthers ? REFUSE : upstream};`,
      ...named.filter((c) => refuses(c) !== refusesOthers).map((c) => `${c} ${refuses(c) ? REFUSE : upstream};`),
    ),
  });
  return { map, proxyPass: variable };
};

/**
 * One L4 port's firewall: whitelisted addresses pass, blacklisted ones are refused (nginx checks allow/deny in
 * order, first match wins), the connection limit per client address and the site's connections at once.
 */
export const l4Access = ({ site, port }: { site: edge.SiteStructure; port: number }) => {
  const { blacklist, whitelist, limitConns } = site.l4Firewall;
  const deny = blacklist.filter(onPort(port));
  const limit = limitConns.find((l) => l.port === port);
  return lines(
    ...(deny.length ? [...whitelist.filter(onPort(port)).map((r) => `allow ${r.ip};`), ...deny.map((r) => `deny ${r.ip};`)] : []),
    limit && `limit_conn ${zoneName(port)} ${limit.max + limit.burst};`,
    site.l4Firewall.connections !== undefined && `limit_conn ${siteZone(site)} ${site.l4Firewall.connections};`,
  );
};
