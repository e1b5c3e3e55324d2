/**
 * Where $ek_country and $ek_asn come from. `source` is the variable holding the looked-up address: the client
 * address in every real configuration; only the edge test harness points it at something else.
 */
export type GeoOptions = { countryDb: string; source?: string };

/** The http-level lines that define $ek_country (from the mmdb) and $ek_asn (no ASN database is carried yet). */
export const geoDirectives = ({ geo }: { geo?: GeoOptions }) => [
  geo
    ? `geoip2 ${geo.countryDb} { $ek_country source=${geo.source ?? '$remote_addr'} country_code; }`
    : 'map $remote_addr $ek_country { default ""; }',
  'map $remote_addr $ek_asn { default ""; }',
];

export const GEO_MODULE = 'ngx_http_geoip2_module';
