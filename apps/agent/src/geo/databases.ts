import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GeoOptions } from '../render';

const require = createRequire(import.meta.url);

/** Country by address (ISO 3166-1 alpha-2 in `country_code`), the mmdb the agent package carries (see the README's data licences). */
export const GEO_COUNTRY_DB = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');

const exists = (file: string) => access(file).then(() => true, () => false);
const hasModule = (modulesDir: string, name: string) => exists(join(modulesDir, `${name}.so`));

/**
 * The geo lookup of a node: the country database by client address where nginx has the geoip2 module (Debian's
 * libnginx-mod-http-geoip2, and libnginx-mod-stream-geoip2 for the L4 ports), and the node's ASN database once it
 * is built; none on builds without the module (OpenResty), whose $ek_country and $ek_asn stay empty.
 */
export const defaultGeo = async ({ modulesDir, builtinModules, asnDb }: { modulesDir: string; builtinModules?: boolean; asnDb?: string }): Promise<GeoOptions | undefined> => {
  if (builtinModules) return undefined;
  if (!(await hasModule(modulesDir, 'ngx_http_geoip2_module'))) return undefined;
  return {
    countryDb: GEO_COUNTRY_DB,
    stream: await hasModule(modulesDir, 'ngx_stream_geoip2_module'),
    ...(asnDb && (await exists(asnDb)) ? { asnDb } : {}),
  };
};
