/** A city database published as one MaxMind DB file per IP family. */
export type CityDb = { ipv4: string; ipv6: string };

/**
 * Where $ek_country, $ek_asn, $ek_isp, $ek_region and $ek_city come from. `source` is the variable holding the
 * looked-up address: the client address in every real configuration; only the edge test harness points it at
 * something else.
 */
export type GeoOptions = {
  countryDb: string;
  /** The node's ASN database, once it has one; without it $ek_asn and $ek_isp are empty. */
  asnDb?: string;
  /** The city database (region and city); without it $ek_region and $ek_city are empty. */
  cityDb?: CityDb;
  source?: string;
  /** nginx has the stream geoip2 module too (L4 positions). */
  stream?: boolean;
};

const none = (variable: string) => `map $remote_addr ${variable} { default ""; }`;

/**
 * Region and city from the file of each IP family: an address is found in the file of its own family only, so
 * the IPv6 file is looked in when the IPv4 one has nothing.
 */
const cityDirectives = ({ cityDb, source }: { cityDb?: CityDb; source: string }) => {
  if (!cityDb) return [];
  return [
    `geoip2 ${cityDb.ipv4} { $ek_region4 source=${source} state1; $ek_city4 source=${source} city; }`,
    `geoip2 ${cityDb.ipv6} { $ek_region6 source=${source} state1; $ek_city6 source=${source} city; }`,
    'map $ek_region4 $ek_region { "" $ek_region6; default $ek_region4; }',
    'map $ek_city4 $ek_city { "" $ek_city6; default $ek_city4; }',
  ];
};

/**
 * The geo variables nothing but the access log reads, where the node lacks their database: they are then neither
 * defined nor logged (the agent reads a missing field as empty), so such a node does no work for them.
 */
export const unloggedGeoVariables = ({ geo }: { geo?: GeoOptions }) => [...(geo?.asnDb ? [] : ['$ek_isp']), ...(geo?.cityDb ? [] : ['$ek_region', '$ek_city'])];

/** The http-level lines that define the geo variables from the mmdb files: $ek_country and $ek_asn empty where there is none. */
export const geoDirectives = ({ geo }: { geo?: GeoOptions }) => {
  const source = geo?.source ?? '$remote_addr';
  return [
    geo ? `geoip2 ${geo.countryDb} { $ek_country source=${source} country_code; }` : none('$ek_country'),
    ...(geo?.asnDb
      ? [`geoip2 ${geo.asnDb} { $ek_asn source=${source} autonomous_system_number; $ek_isp source=${source} autonomous_system_organization; }`]
      : [none('$ek_asn')]),
    ...cityDirectives({ cityDb: geo?.cityDb, source }),
  ];
};

export const GEO_MODULE = 'ngx_http_geoip2_module';

export const STREAM_GEO_MODULE = 'ngx_stream_geoip2_module';

/**
 * The stream-level lines that define, from the stream geoip2 module: $ek_l4_country and $ek_l4_asn of the client
 * address (L4 positions and the stream log), and $ek_l4_colo, the country of the node's own address the connection
 * arrived at (the data centre's). Without the module, or a database, they are empty (an allow-only position then
 * refuses everyone, a deny one no one).
 */
export const streamGeoDirectives = ({ geo }: { geo?: GeoOptions }) => {
  const empty = (variable: string) => `map $remote_addr ${variable} { default ""; }`;
  if (!geo?.stream) return [empty('$ek_l4_country'), empty('$ek_l4_colo'), empty('$ek_l4_asn')].join('\n');
  return [
    `geoip2 ${geo.countryDb} { $ek_l4_country source=$remote_addr country_code; $ek_l4_colo source=$server_addr country_code; }`,
    geo.asnDb ? `geoip2 ${geo.asnDb} { $ek_l4_asn source=$remote_addr autonomous_system_number; }` : empty('$ek_l4_asn'),
  ].join('\n');
};
