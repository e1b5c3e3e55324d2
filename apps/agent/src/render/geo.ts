/**
 * Where $ek_country and $ek_asn come from. `source` is the variable holding the looked-up address: the client
 * address in every real configuration; only the edge test harness points it at something else.
 */
export type GeoOptions = {
  countryDb: string;
  /** The node's ASN database, once it has one; without it $ek_asn is empty. */
  asnDb?: string;
  source?: string;
  /** nginx has the stream geoip2 module too (L4 positions). */
  stream?: boolean;
};

/** The http-level lines that define $ek_country and $ek_asn from the mmdb files, empty where there is none. */
export const geoDirectives = ({ geo }: { geo?: GeoOptions }) => {
  const source = geo?.source ?? '$remote_addr';
  return [
    geo ? `geoip2 ${geo.countryDb} { $ek_country source=${source} country_code; }` : 'map $remote_addr $ek_country { default ""; }',
    geo?.asnDb ? `geoip2 ${geo.asnDb} { $ek_asn source=${source} autonomous_system_number; }` : 'map $remote_addr $ek_asn { default ""; }',
  ];
};

export const GEO_MODULE = 'ngx_http_geoip2_module';

export const STREAM_GEO_MODULE = 'ngx_stream_geoip2_module';

/**
 * The stream-level lines that define $ek_l4_country from the client address, for the L4 positions; without the
 * stream geoip2 module the country is unknown (an allow-only position then refuses everyone, a deny one no one).
 */
export const streamGeoDirectives = ({ geo }: { geo?: GeoOptions }) =>
  geo?.stream
    ? `geoip2 ${geo.countryDb} { $ek_l4_country source=$remote_addr country_code; }`
    : 'map $remote_addr $ek_l4_country { default ""; }';
